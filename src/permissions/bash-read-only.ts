// Whether a bash command can change no file, read from the permission rules' own split
// (bash-split.ts): every simple command is a program of READERS (a bash builtin, or a program
// that PATH resolves outside the workspace and every directory a command may write), with fixed
// words or plain globs for arguments, no redirection that writes, no assignment, and a parse
// that is not uncertain. The bash tool asks it through its context (the agent wires it), so a
// command it says yes to takes no checkpoint (docs/rewind.md); anything else "may change".
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, isAbsolute, join, resolve, sep } from "node:path";
import { bashParserLoaded, loadBashParser } from "./bash-parser.ts";
import { type SimpleCommand, splitCommand } from "./bash-split.ts";

/** Programs no argument makes write a file (sort -o, tree -o, find -delete, sed -i: not here). */
const READERS = new Set([
  "basename",
  "cat",
  "cmp",
  "df",
  "diff",
  "dirname",
  "du",
  "echo",
  "egrep",
  "false",
  "fgrep",
  "grep",
  "head",
  "id",
  "ls",
  "md5sum",
  "nl",
  "printf",
  "pwd",
  "readlink",
  "realpath",
  "sha1sum",
  "sha256sum",
  "stat",
  "tail",
  "true",
  "uname",
  "wc",
  "which",
  "whoami",
]);

/** READERS that bash runs itself: no PATH lookup. */
const BUILTINS = new Set(["echo", "false", "printf", "pwd", "true"]);

/** What bash searches when PATH is unset (its compiled-in default). */
const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** Where a command runs: its directory, environment and the directories it may write. */
interface CommandPlace {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Directories a command may write besides the workspace and the temp dirs (the sandbox's). */
  writable: readonly string[];
}

/**
 * True when `command` can change no file (see the header). Synchronous once the parser is
 * loaded; before that a command naming no reader (false) or of plain words only is answered at
 * once, any other waits for the load. A parser that fails to load answers false.
 */
export function bashChangesNoFile(
  command: string,
  place: CommandPlace,
): boolean | Promise<boolean> {
  if (!namesReader(command)) return false;
  const plain = plainCommand(command);
  if (plain) return allRead([plain], place);
  if (bashParserLoaded()) return decide(command, place);
  return loadBashParser().then(
    () => decide(command, place),
    () => false,
  );
}

/** A cheap filter before the parse: a command that names no reader cannot be all readers. */
const NAMES_READER = new RegExp(`(?:^|[^\\w-])(?:${[...READERS].join("|")})(?![\\w-])`);

function namesReader(command: string): boolean {
  return NAMES_READER.test(command);
}

/**
 * Words of plain characters only, separated by blanks (no quote, expansion, glob, operator,
 * redirection, assignment or comment): bash reads them as one simple command of those words,
 * so `cat src/a.ts` is answered without loading the parser (about 0.1 s of CPU the first time).
 */
const PLAIN = /^[ \t]*[\w./,:@%+-]+(?:[ \t]+[\w./,:@%+-]+)*[ \t]*$/;

function plainCommand(command: string): SimpleCommand | null {
  if (!PLAIN.test(command)) return null;
  const words = command.trim().split(/[ \t]+/);
  return { text: command, bare: command, words, writes: false, argv: words };
}

function decide(command: string, place: CommandPlace): boolean {
  const split = splitCommand(command);
  if (split.uncertain || split.commands.length === 0) return false;
  return allRead(split.commands, place);
}

function allRead(parts: readonly SimpleCommand[], place: CommandPlace): boolean {
  // bash runs BASH_ENV's file first, and imports exported functions (a `cat` of its own).
  if (place.env.BASH_ENV || Object.keys(place.env).some((key) => key.startsWith("BASH_FUNC_"))) {
    return false;
  }
  const writable = writableDirs(place);
  return parts.every((part) => onlyReads(part) && trusted(part.argv[0] ?? "", place, writable));
}

/** A reader with fixed words or plain globs, no assignment before it and no writing redirection. */
function onlyReads(part: SimpleCommand): boolean {
  const [name, ...args] = part.argv;
  if (part.writes || name === undefined) return false;
  if (!READERS.has(name.slice(name.lastIndexOf("/") + 1))) return false;
  if (/^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/.test(part.words[0] ?? "")) return false;
  if (args.every((arg) => arg !== undefined)) return true;
  // A computed word is allowed only as a glob of plain characters (`*.ts`), read from the word
  // as written: possible only when no redirection sits between the words.
  if (part.words.length !== part.argv.length) return false;
  return args.every(
    (arg, at) =>
      arg !== undefined || /^[\w./,:=@%+-]*[*?][\w./,:=@%+*?-]*$/.test(part.words[at + 1] ?? ""),
  );
}

/** The program bash would run for `name` is a builtin, or a file outside every writable place. */
function trusted(name: string, place: CommandPlace, writable: readonly string[]): boolean {
  if (!name.includes("/") && BUILTINS.has(name)) return true;
  const program = name.includes("/") ? resolve(place.cwd, name) : onPath(name, place);
  if (program === undefined || !executable(program)) return false;
  const real = realOrSelf(program);
  return !writable.some((dir) => inside(program, dir) || inside(real, dir));
}

/** The first executable `name` in PATH's directories (an empty entry is the working directory). */
function onPath(name: string, place: CommandPlace): string | undefined {
  const path = place.env.PATH ?? DEFAULT_PATH;
  for (const dir of path.split(delimiter)) {
    // bash expands a leading `~` in a PATH entry; not followed here, so not trusted.
    if (dir.startsWith("~")) return undefined;
    const candidate = resolve(place.cwd, dir === "" ? "." : dir, name);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The workspace, the temp dirs and the sandbox's writable dirs, each also as its real path. */
function writableDirs(place: CommandPlace): string[] {
  const dirs = [place.cwd, ...place.writable, tmpdir(), "/tmp", "/var/tmp", "/dev/shm"];
  if (place.env.TMPDIR) dirs.push(place.env.TMPDIR);
  const absolute = dirs.filter((dir) => isAbsolute(dir));
  return [...new Set([...absolute, ...absolute.map(realOrSelf)])];
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function inside(path: string, dir: string): boolean {
  const root = dir.endsWith(sep) ? dir : join(dir, sep);
  return path === dir || path.startsWith(root);
}
