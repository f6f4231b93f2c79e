// User-defined slash commands: Markdown files whose body is a prompt, in Claude Code's format
// (optional frontmatter `description`, `argument-hint`, `allowed-tools` and `model`; `$ARGUMENTS`
// and `$1`…`$9` in the body, `@path` files attached by command-scope.ts); a file in a subdirectory is namespaced (`git/commit.md` is `/git:commit`). Read from `$CODEWHALE_HOME/commands/` (the user's), then the project's
// `.codewhale/commands/` and `.claude/commands/`; a name already taken (a built-in, or an
// earlier directory: a repository never shadows the user's own) is skipped with a note.
// A project's files come from a possibly hostile repository, so a command is only prompt text
// sent when the user invokes it: nothing in it runs unasked (its `allowed-tools` hold only in a
// trusted project, turn-scope.ts) (Claude Code's !`cmd` spans are
// asked for by app.ts, and shown as not run when declined), names are limited to [a-z0-9_-], files to 64 KB, and a symlink that leads out of
// its directory is refused. Loaded by app.ts for /help, completion and invocation.
import { join } from "node:path";
import {
  directoryEntries,
  insideProject,
  parseFrontMatter,
  readDefinitionFile,
  unquote,
} from "../config/definition-files.ts";
import { BUILTIN_NAMES } from "./slash-commands.ts";

export type CommandSource = "user" | "project" | "project (.claude)";

export interface UserCommand {
  name: string;
  description: string;
  argumentHint: string | undefined;
  /** Front matter `allowed-tools`: allow rules for the command's turn (command-scope.ts). */
  allowedTools: string[];
  /** Front matter `model`: the model of the command's turn. */
  model: string | undefined;
  body: string;
  source: CommandSource;
  /** The file it came from. */
  path: string;
}

export interface LoadedCommands {
  commands: UserCommand[];
  /** One line per file not taken, naming it and why. */
  skipped: string[];
}

export const MAX_COMMAND_BYTES = 64 * 1024;
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export interface CommandDirs {
  home: string;
  project: string;
}

export function commandDirs(dirs: CommandDirs): Array<{ dir: string; source: CommandSource }> {
  return [
    { dir: join(dirs.home, "commands"), source: "user" },
    { dir: join(dirs.project, ".codewhale", "commands"), source: "project" },
    { dir: join(dirs.project, ".claude", "commands"), source: "project (.claude)" },
  ];
}

/** Every command of the three directories; `taken`: names no file may use (the built-ins). */
export function loadUserCommands(dirs: CommandDirs, taken: ReadonlySet<string>): LoadedCommands {
  const commands: UserCommand[] = [];
  const skipped: string[] = [];
  const names = new Set(taken);
  for (const { dir, source } of commandDirs(dirs)) {
    if (source !== "user" && !insideProject(dir, dirs.project)) {
      skipped.push(`${dir}: a symlink out of the project`);
      continue;
    }
    for (const file of commandFiles(dir)) {
      const name = file.slice(0, -3).toLowerCase().replace("/", ":");
      const path = join(dir, file);
      const problem = name.split(":").every((part) => NAME.test(part))
        ? undefined
        : "a name may use only a-z, 0-9, - and _";
      const read = problem ? { problem } : readDefinitionFile(dir, path, MAX_COMMAND_BYTES);
      if ("problem" in read) {
        skipped.push(`${path}: ${read.problem}`);
        continue;
      }
      if (names.has(name)) {
        skipped.push(`${path}: /${name} is taken`);
        continue;
      }
      names.add(name);
      commands.push({ name, source, path, ...parseCommand(read.text) });
    }
  }
  return { commands, skipped };
}

/** The `.md` files of `dir` and of its subdirectories (`git/commit.md`: `/git:commit`). */
function commandFiles(dir: string): string[] {
  const files = markdownFiles(dir);
  const subdirs = directoryEntries(dir, (entry) => entry.isDirectory());
  for (const sub of subdirs) files.push(...markdownFiles(join(dir, sub)).map((f) => `${sub}/${f}`));
  return files;
}

function markdownFiles(dir: string): string[] {
  return directoryEntries(
    dir,
    (entry) => entry.name.endsWith(".md") && (entry.isFile() || entry.isSymbolicLink()),
  );
}

/** Splits the frontmatter (flat `key: value` lines) from the body. */
export function parseCommand(
  text: string,
): Pick<UserCommand, "description" | "argumentHint" | "allowedTools" | "model" | "body"> {
  const front = parseFrontMatter(text);
  const fields = front?.fields ?? new Map<string, string>();
  const body = front ? front.body : text;
  const firstLine =
    body
      .split("\n")
      .find((line) => line.trim())
      ?.trim() ?? "";
  return {
    description: fields.get("description") || firstLine.slice(0, 80),
    argumentHint: fields.get("argument-hint") || undefined,
    allowedTools: ruleList(fields.get("allowed-tools") ?? ""),
    model: fields.get("model") || undefined,
    body,
  };
}

/**
 * `allowed-tools` as Claude Code writes it: rules separated by commas (or spaces) outside
 * parentheses, optionally in brackets: `Bash(git add:*), Bash(git status:*), Read`.
 */
function ruleList(value: string): string[] {
  const text = value.trim().replace(/^\[([\s\S]*)\]$/, "$1");
  const rules: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of text) {
    if (char === "(") depth++;
    else if (char === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === "," || /\s/.test(char))) {
      if (current.trim()) rules.push(current.trim());
      current = "";
    } else current += char;
  }
  if (current.trim()) rules.push(current.trim());
  return rules.map(unquote);
}

/** `@path` at the start of a word, outside code; trailing punctuation is not part of it. */
const MENTION = /(?<![\w@])@([^\s`'"@]+)/g;

/** The `@path` files of a command's body, each once, in order (never in code spans or blocks). */
export function fileMentions(body: string): string[] {
  const prose = body.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const paths = [...prose.matchAll(MENTION)].map((match) =>
    (match[1] ?? "").replace(/[.,;:!?)\]]+$/, ""),
  );
  // `@server:uri` is an MCP resource, not a file.
  return [...new Set(paths.filter((path) => path !== "" && !/^[\w-]+:/.test(path)))];
}

/** Claude Code's !`command`: a command whose output the prompt takes. */
const SHELL_SPAN = /!`([^`\n]*)`/g;

/** The !`command` spans of a command's prompt, each once, in order. */
export function shellSpans(command: UserCommand): string[] {
  const lines = [...command.body.matchAll(SHELL_SPAN)].map((match) => match[1] ?? "");
  return [...new Set(lines.filter((line) => line.trim() !== ""))];
}

/**
 * The prompt a command sends: `$ARGUMENTS` is the whole argument text, `$1`…`$9` its
 * whitespace-separated words (missing ones empty). Claude Code's !`command` (run a command and
 * insert its output) is never run here: the terminal asks first and runs the ones allowed as
 * the user's own `!` commands (their output reaches the model as a note before the prompt);
 * each span becomes `command` followed by "(its output is above)" if in `ran`, else "(not run)".
 */
export function expandCommand(
  command: UserCommand,
  argument: string,
  ran: ReadonlySet<string> = new Set(),
): string {
  const words = argument.trim() ? argument.trim().split(/\s+/) : [];
  const expanded = command.body
    .replace(SHELL_SPAN, (_, line: string) =>
      ran.has(line) ? `\`${line}\` (its output is above)` : `\`${line}\` (not run)`,
    )
    .replace(/\$ARGUMENTS|\$([1-9])/g, (_, index: string | undefined) =>
      index === undefined ? argument.trim() : (words[Number(index) - 1] ?? ""),
    );
  const text = expanded.trim();
  // A command that takes no $ARGUMENTS still passes what was typed after it, as Claude Code does.
  if (argument.trim() && !/\$ARGUMENTS|\$[1-9]/.test(command.body))
    return `${text}\n\n${argument.trim()}`;
  return text;
}

/** The commands as they are on disk, read again when asked for a second or more later. */
export class UserCommandSet {
  private loaded: { at: number; commands: LoadedCommands } | undefined;

  constructor(
    private readonly dirs: CommandDirs,
    private readonly now: () => number = Date.now,
  ) {}

  current(): LoadedCommands {
    const now = this.now();
    if (!this.loaded || now - this.loaded.at > 1000)
      this.loaded = { at: now, commands: loadUserCommands(this.dirs, BUILTIN_NAMES) };
    return this.loaded.commands;
  }
}
