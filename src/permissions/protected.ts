// The files that give control over what runs: git's directory (config, hooks), any folder a
// write would make one (judged by what it becomes: HEAD and its siblings), codewhale's and
// Claude Code's settings, MCP and direnv files, VS Code tasks, the user's codewhale home and
// `protected_paths`. An edit of one asks in every mode but bypass, whatever the allow rules
// say (evaluate.ts); exec's advice (ask.ts) reads the same verdict.
import type { Dirent } from "node:fs";
import { lstatSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { realOr } from "./file-boundary.ts";
import type { PathBases, PathPattern } from "./rules.ts";
import { escapeRegExp, matchesPath, parsePathPattern } from "./rules.ts";

/**
 * Built in, matched against the path inside the workspace at any depth, case-insensitively
 * (`.GIT/config` is the same file on macOS): the entry itself and anything under it.
 */
export const PROTECTED_PATHS: readonly string[] = [
  ".git",
  ".codewhale",
  ".claude",
  ".mcp.json",
  ".gitmodules",
  ".envrc",
  ".vscode/tasks.json",
];

export interface ProtectionContext {
  workspaceRoot: string;
  home: string;
  /** `$CODEWHALE_HOME`: the user's config, instructions, trust and sessions. */
  configHome?: string;
  /** The user file's `protected_paths`, in permission-rule path syntax. */
  protect?: readonly string[];
}

/**
 * Files git uses to recognise a git directory or to follow one elsewhere: protected at any depth,
 * by name alone (case-insensitively), since one of them is what turns a folder into a repository.
 */
export const GIT_CONTROL_NAMES: readonly string[] = [
  "HEAD",
  "commondir",
  "gitdir",
  "packed-refs",
  "config.worktree",
];

/**
 * The other entries of a git directory. A directory that holds a HEAD file and one of these (or
 * of GIT_CONTROL_NAMES) once a write is done is a git directory to git, or one a write away.
 */
const GIT_DIR_ENTRIES: readonly string[] = [
  "objects",
  "refs",
  "config",
  "hooks",
  "info",
  "worktrees",
  ...GIT_CONTROL_NAMES.slice(1),
];

const CONTROL_NAMES = new Set(GIT_CONTROL_NAMES.map((name) => name.toLowerCase()));

const BUILTIN = PROTECTED_PATHS.map(
  (entry) => new RegExp(`(?:^|/)${escapeRegExp(entry)}(?:/|$)`, "i"),
);

/**
 * Why editing one of `paths` (a path as given and where its symlinks lead) is protected, or
 * undefined. `roots` are the workspace and home as given and as resolved.
 */
export function protectedBecause(
  paths: readonly string[],
  roots: readonly PathBases[],
  ctx: ProtectionContext,
): string | undefined {
  // Read once for all of `paths`: the home's entries, the user's patterns.
  let home: string[] | undefined;
  const homeDirs = () => (home ??= ctx.configHome ? homeTargets(ctx.configHome) : []);
  const patterns = (ctx.protect ?? []).map((text) => ({ text, pattern: parsePathPattern(text) }));
  for (const path of paths) {
    const why = whyProtected(path, roots, homeDirs, patterns);
    if (why) return `${path} is protected (${why})`;
  }
  return undefined;
}

function whyProtected(
  path: string,
  roots: readonly PathBases[],
  homeDirs: () => readonly string[],
  patterns: readonly { text: string; pattern: PathPattern }[],
): string | undefined {
  for (const base of roots) {
    const rel = inside(base.workspace, path);
    if (rel === undefined) continue;
    const entry = PROTECTED_PATHS[BUILTIN.findIndex((pattern) => pattern.test(rel))];
    if (entry) return `${entry}: it can make git, codewhale or another tool run commands`;
    if (rel !== "" && CONTROL_NAMES.has(basename(rel).toLowerCase())) {
      return `${basename(rel)}: a name git uses to recognise or find a git directory, which can run commands`;
    }
  }
  if (homeDirs().some((dir) => inside(dir, path) !== undefined)) {
    return "your codewhale home: your config, instructions and sessions";
  }
  for (const { text, pattern } of patterns) {
    if (roots.some((base) => matchesPath(pattern, path, base))) return `protected_paths "${text}"`;
  }
  const gitDir = enclosingGitDir(path, roots);
  return gitDir ? `it makes or changes the git directory ${gitDir}` : undefined;
}

/**
 * The codewhale home as given and resolved, and where each symlink directly in it leads: a
 * `config.toml` linked from a dotfiles repository is the user's config wherever it lives.
 */
function homeTargets(home: string): string[] {
  const targets = [home, realOr(home)];
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(home, { withFileTypes: true });
  } catch {
    return targets;
  }
  for (const entry of entries) {
    if (entry.isSymbolicLink()) targets.push(realOr(join(home, entry.name)));
  }
  return targets;
}

/**
 * The nearest directory above `path`, up to the workspace root, that is a git directory once the
 * write is done: it holds a HEAD file and another of git's entries, counting the one the write
 * creates. So a git directory built file by file (`config`, `objects/`, `refs/`, then `HEAD`, in
 * any order) asks at the write that completes it, and the real git directory a `.git` file
 * points to (a worktree's, a submodule's) counts however it is named.
 */
function enclosingGitDir(path: string, roots: readonly PathBases[]): string | undefined {
  const workspaces = roots.map((base) => base.workspace);
  let dir = dirname(path);
  let added = basename(path);
  let addsFile = true;
  while (workspaces.some((root) => inside(root, dir) !== undefined)) {
    if (isGitDirAfter(dir, added.toLowerCase(), addsFile)) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    added = basename(dir);
    addsFile = false;
    dir = up;
  }
  return undefined;
}

/** Whether `dir` is git-shaped once `added` (its entry the write creates or changes) exists. */
function isGitDirAfter(dir: string, added: string, addsFile: boolean): boolean {
  const head = (addsFile && added === "head") || isKind(join(dir, "HEAD"), "file");
  if (!head) return false;
  return GIT_DIR_ENTRIES.some((entry) => added === entry.toLowerCase() || exists(join(dir, entry)));
}

function exists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

function isKind(path: string, kind: "file" | "dir"): boolean {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) return false;
    return kind === "file" ? info.isFile() : info.isDirectory();
  } catch {
    return false;
  }
}

/** `path` relative to `root` with `/` separators ("" for the root), or undefined when outside. */
function inside(root: string, path: string): string | undefined {
  const rel = relative(root, path).split("\\").join("/");
  if (rel === ".." || rel.startsWith("../") || isAbsolute(rel)) return undefined;
  return rel;
}
