// The workspace files that configured commands run: the scripts named in hook commands, external
// tools' and MCP servers' command lines, the files of the runner they start (`make` runs the
// Makefile, `npm run` package.json), and git's configured `core.hooksPath`. Each is protected
// (protected.ts) since the command runs it, often right after the write. Built once per session
// (agent/session-guard.ts); pure apart from reading git's config files and stat-ing paths.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";

/** A path a configured command runs, and which command. */
export interface RunTarget {
  path: string;
  by: string;
}

export interface RunSources {
  /** The project root (`$CODEWHALE_PROJECT_DIR`); only paths inside it are kept. */
  workspaceRoot: string;
  /** Where the commands start. */
  cwd: string;
  home: string;
  /** `$XDG_CONFIG_HOME`, where git's other user config lives (default `~/.config`). */
  xdgConfigHome?: string;
  /** Command lines run by a shell (hooks), each with who runs it. */
  shell: readonly { command: string; by: string }[];
  /** Argument vectors (external tools, MCP servers), each with who runs it and where. */
  argv: readonly { argv: readonly string[]; by: string; cwd?: string }[];
}

/** Programs that run a file of the folder they start in, whatever their arguments. */
const RUNNER_FILES: Readonly<Record<string, readonly string[]>> = {
  make: ["Makefile", "makefile", "GNUmakefile"],
  npm: ["package.json"],
  npx: ["package.json"],
  pnpm: ["package.json"],
  yarn: ["package.json"],
  bun: ["package.json"],
  just: ["justfile", "Justfile", ".justfile"],
  task: ["Taskfile.yml", "Taskfile.yaml"],
};

/** A bare word ending so is taken for a script even before it exists. */
const SCRIPT = /\.(?:[cm]?js|[cm]?ts|sh|bash|zsh|py|rb|pl|php|ps1|lua)$/i;

export function runTargets(sources: RunSources): RunTarget[] {
  const targets: RunTarget[] = [];
  const add = (paths: string[], by: string) => {
    for (const path of paths) targets.push({ path, by });
  };
  for (const { command, by } of sources.shell) {
    const words = shellWords(expandProjectDir(command, sources.workspaceRoot));
    add(namedPaths(words, sources.cwd, sources), `${by} "${command}"`);
  }
  for (const { argv, by, cwd } of sources.argv) {
    const words = argv.map((word) => expandProjectDir(word, sources.workspaceRoot));
    add(namedPaths([words], cwd ? resolve(sources.cwd, cwd) : sources.cwd, sources), by);
  }
  const hooks = gitHooksPath(sources.workspaceRoot, sources.home, sources.xdgConfigHome);
  if (hooks) add([hooks], "git's core.hooksPath");
  return targets;
}

/** The workspace paths the commands (simple commands, each a list of words) name or run. */
function namedPaths(commands: string[][], cwd: string, sources: RunSources): string[] {
  const found: string[] = [];
  for (const words of commands) {
    const program = basename(words[0] ?? "");
    for (const file of RUNNER_FILES[program] ?? []) found.push(join(cwd, file));
    for (const word of words) {
      const value =
        word.startsWith("-") && word.includes("=") ? word.slice(word.indexOf("=") + 1) : word;
      const path = pathOfWord(value, cwd, sources.home);
      if (path !== undefined) found.push(path);
    }
  }
  return found.filter((path) => keep(path, sources.workspaceRoot));
}

/** The file a word names: a path (with a `/`, or `~/`), or a script in `cwd`; else undefined. */
function pathOfWord(word: string, cwd: string, home: string): string | undefined {
  if (word === "" || word.includes("{{") || /^[a-z][a-z0-9+.-]*:/i.test(word)) return undefined;
  if (word.startsWith("~/")) return join(home, word.slice(2));
  if (word.includes("/")) return resolve(cwd, word);
  const path = resolve(cwd, word);
  return SCRIPT.test(word) || kindOf(path) === "file" ? path : undefined;
}

/** Inside the workspace, not its root, and not an existing directory (`eslint src/`). */
function keep(path: string, root: string): boolean {
  const rel = path.startsWith(`${root}/`) ? path.slice(root.length + 1) : undefined;
  return rel !== undefined && rel !== "" && kindOf(path) !== "dir";
}

function expandProjectDir(text: string, root: string): string {
  return text.replace(/\$\{?(?:CODEWHALE|CLAUDE)_PROJECT_DIR\}?/g, root);
}

/**
 * A shell command line as simple commands of words: quotes removed, split at `;`, `&`, `|`,
 * `(`, `)` and newlines. Enough to find the paths a hook command names; it is not a parser.
 */
export function shellWords(line: string): string[][] {
  const commands: string[][] = [[]];
  let word: string | undefined;
  let quote: string | undefined;
  const end = () => {
    if (word !== undefined) commands[commands.length - 1]?.push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const char = line[i] ?? "";
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === "\\" && quote === '"' && i + 1 < line.length) word += line[++i] ?? "";
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= "";
    } else if (char === "\\" && i + 1 < line.length) {
      word = (word ?? "") + (line[++i] ?? "");
    } else if (/[;&|()\n]/.test(char)) {
      end();
      commands.push([]);
    } else if (/[\s<>]/.test(char)) end();
    else word = (word ?? "") + char;
  }
  end();
  return commands.filter((words) => words.length > 0);
}

/**
 * The folder git runs hooks from when `core.hooksPath` is set for the repository holding the
 * workspace (its config, or the user's global one), when it is inside the workspace.
 */
function gitHooksPath(
  workspaceRoot: string,
  home: string,
  xdgConfigHome: string | undefined,
): string | undefined {
  const repo = repositoryOf(workspaceRoot);
  // Git's precedence, highest first: the worktree's, the repository's, the user's, XDG's.
  const files = [
    ...(repo ? [join(repo.gitDir, "config.worktree"), join(repo.gitDir, "config")] : []),
    join(home, ".gitconfig"),
    join(xdgConfigHome ?? join(home, ".config"), "git", "config"),
  ];
  let value: string | undefined;
  for (const file of files) value ??= hooksPathIn(file);
  if (value === undefined) return undefined;
  if (value.startsWith("~/")) return join(home, value.slice(2));
  return resolve(repo?.top ?? workspaceRoot, value);
}

/** The work tree's top and its git directory, found from `dir` upwards. */
function repositoryOf(dir: string): { top: string; gitDir: string } | undefined {
  for (let top = dir; ; top = dirname(top)) {
    const dotGit = join(top, ".git");
    const kind = kindOf(dotGit);
    // An empty `.git` (a sandbox's mount point) is no repository; git passes over it too.
    if (kind === "dir" && !isEmptyDir(dotGit)) return { top, gitDir: dotGit };
    if (kind === "file") {
      const line = readText(dotGit)?.match(/^gitdir:\s*(.+?)\s*$/m)?.[1];
      if (line) return { top, gitDir: isAbsolute(line) ? line : resolve(top, line) };
    }
    if (dirname(top) === top) return undefined;
  }
}

/** The last `hooksPath` of a `[core]` section in a git config file. */
function hooksPathIn(file: string): string | undefined {
  const text = readText(file);
  if (text === undefined) return undefined;
  let section = "";
  let value: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = line.match(/^\[\s*([A-Za-z0-9.-]+)[^\]]*\]\s*(.*)$/);
    const body = header ? (header[2] ?? "") : line;
    if (header) section = (header[1] ?? "").toLowerCase();
    const entry = body.match(/^hookspath\s*=\s*(.*?)\s*$/i);
    if (section === "core" && entry) value = (entry[1] ?? "").replace(/^"(.*)"$/, "$1");
  }
  return value;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function isEmptyDir(path: string): boolean {
  try {
    return readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

function kindOf(path: string): "file" | "dir" | undefined {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) return undefined;
    return info.isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}
