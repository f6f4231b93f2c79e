// Assembles the system prompt once per run: the built-in prompt (or the `system_prompt_file`
// replacing it), then every AGENTS.md and CLAUDE.md from the repository root down to the cwd,
// then `$CODEWHALE_HOME/AGENTS.md`, then the rule files without `paths:` (config/rule-files.ts),
// each followed by the files its `@path` imports bring in (instruction-imports.ts; a file
// already in the prompt is not added twice). A repository's
// instruction file that is a link to a file outside the repository (and outside
// `allowed_prompt_dirs`) is skipped and named in a notice, and so is such an import.
// Called by the agent when it opens a session.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { promptFilePlace, readPromptFile, repositoryRoot } from "../config/index.ts";
import { ConfigError } from "../errors.ts";
import { BUILTIN_PROMPT } from "./builtin-prompt.ts";
import { readImports } from "./instruction-imports.ts";

interface SystemPromptOptions {
  cwd: string;
  home: string;
  /** Replaces the built-in part when set (config `system_prompt_file` / the flag). */
  promptFile?: string;
  /** The user file's `allowed_prompt_dirs`: where a repository's instruction links may point. */
  allowedDirs?: readonly string[];
  /** Told once about each instruction file skipped, with a one-line reason. */
  onSkipped?: (message: string) => void;
  /** HOME, for `@~/…` imports (default: the OS's). */
  userHome?: string;
  /** The rule files of every session (those without `paths:`), already read. */
  rules?: readonly { path: string; text: string }[];
}

const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"];

export function buildSystemPrompt(options: SystemPromptOptions): string {
  const parts = [basePrompt(options.promptFile)];
  const root = repositoryRoot(resolve(options.cwd)) ?? resolve(options.cwd);
  const userFile = join(options.home, "AGENTS.md");
  const allowedDirs = options.allowedDirs ?? [];
  const files = instructionFiles(options.cwd, options.home);
  const seen = new Set(files.map((path) => resolve(path)));
  const scope = {
    root,
    allowedDirs,
    trustedFile: userFile,
    ...(options.userHome ? { home: options.userHome } : {}),
    ...(options.onSkipped ? { onSkipped: options.onSkipped } : {}),
  };
  for (const path of files) {
    const place = path === userFile ? undefined : promptFilePlace(path, root, allowedDirs);
    if (place && !place.ok) {
      options.onSkipped?.(
        `codewhale: skipping the instruction file ${path}: it links to ${place.realPath}, outside the repository ${root} (list that directory in allowed_prompt_dirs in your user file to allow it)`,
      );
      continue;
    }
    parts.push(...withImports(path, readFileSync(path, "utf8").trim(), scope, seen));
  }
  for (const rule of options.rules ?? []) {
    if (seen.has(resolve(rule.path))) continue;
    seen.add(resolve(rule.path));
    parts.push(...withImports(rule.path, rule.text, scope, seen));
  }
  return parts.join("\n\n");
}

/** The file's part of the prompt (if it says anything) and its imports' parts. */
function withImports(
  path: string,
  text: string,
  scope: Parameters<typeof readImports>[2],
  seen: Set<string>,
): string[] {
  const parts = text === "" ? [] : [`# Instructions from ${path}\n\n${text}`];
  for (const imported of readImports(text, path, scope, seen)) {
    if (imported.text === "") continue;
    const heading = `# Instructions from ${imported.path} (imported by ${imported.from})`;
    parts.push(`${heading}\n\n${imported.text}`);
  }
  return parts;
}

/** The prompt file is read through config's check: a readable regular file of at most 1 MiB. */
function basePrompt(promptFile: string | undefined): string {
  if (promptFile === undefined) return BUILTIN_PROMPT;
  const read = readPromptFile(promptFile);
  if (read.ok) return read.text.trim();
  const key = "system_prompt_file";
  throw new ConfigError(
    `key "${key}" (--system-prompt-file): ${read.problem}`,
    undefined,
    undefined,
    key,
  );
}

/** The instruction files that apply to `cwd`, outermost first, then the user's own. */
function instructionFiles(cwd: string, home: string): string[] {
  const files: string[] = [];
  for (const dir of directoriesFromRoot(resolve(cwd))) {
    for (const name of INSTRUCTION_FILES) {
      const path = join(dir, name);
      if (isFile(path)) files.push(path);
    }
  }
  const user = join(home, "AGENTS.md");
  if (isFile(user) && !files.includes(user)) files.push(user);
  return files;
}

/** The repository root (nearest directory with `.git`, else cwd) and each directory down to cwd. */
function directoriesFromRoot(cwd: string): string[] {
  const root = repositoryRoot(cwd) ?? cwd;
  const rest = relative(root, cwd);
  const dirs = [root];
  if (rest === "") return dirs;
  let dir = root;
  for (const segment of rest.split(sep)) {
    dir = join(dir, segment);
    dirs.push(dir);
  }
  return dirs;
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}
