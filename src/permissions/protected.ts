// Whether a write or edit touches a protected file: the built-in list (protected-list.ts), git's
// control names and files named like a git directory's (`config`, `hooks/pre-commit`), any folder
// the write makes a git directory (judged by what it becomes), the files configured commands run
// (run-targets.ts), the codewhale home and `protected_paths`, less `permissions.unprotect`. Such
// an edit asks in every mode but bypass, whatever the allow rules say (evaluate.ts).
import type { Dirent } from "node:fs";
import { lstatSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { realOr } from "./file-boundary.ts";
import {
  GIT_CONTROL_NAMES,
  GIT_HOOK_NAMES,
  GIT_LOOKALIKE_NAMES,
  PROTECTED_GROUPS,
} from "./protected-list.ts";
import type { PathBases, PathPattern } from "./rules.ts";
import { globToRegExp, matchesPath, parsePathPattern } from "./rules.ts";
import type { RunTarget } from "./run-targets.ts";

export interface ProtectionContext {
  workspaceRoot: string;
  home: string;
  /** `$CODEWHALE_HOME`: the user's config, instructions, trust and sessions. */
  configHome?: string;
  /** The user file's `protected_paths`, in permission-rule path syntax. */
  protect?: readonly string[];
  /** The user file's `permissions.unprotect`: built-in entries and run targets let go. */
  unprotect?: readonly string[];
  /** Workspace files configured commands run (run-targets.ts), protected too. */
  runs?: readonly RunTarget[];
}

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

/** Entries that, beside a `config` file, make a folder a git directory's object store. */
const GIT_STORE_ENTRIES: readonly string[] = ["objects", "refs"];

const lower = (names: readonly string[]) => new Set(names.map((name) => name.toLowerCase()));
const CONTROL_NAMES = lower(GIT_CONTROL_NAMES);
const LOOKALIKE_NAMES = lower(GIT_LOOKALIKE_NAMES);
const HOOK_NAMES = lower(GIT_HOOK_NAMES);

const BUILTIN = PROTECTED_GROUPS.flatMap((group) =>
  group.entries.map((entry) => ({
    entry,
    why: group.why,
    pattern: new RegExp(`(?:^|/)${globToRegExp(entry)}(?:/|$)`, "i"),
  })),
);

interface Patterns {
  text: string;
  pattern: PathPattern;
}

/** What one check reads once for all its paths: the home's entries, the user's patterns. */
interface Guards {
  roots: readonly PathBases[];
  homeDirs: () => readonly string[];
  protect: readonly Patterns[];
  unprotect: readonly Patterns[];
  runs: readonly RunTarget[];
}

/**
 * Why editing one of `paths` (a path as given and where its symlinks lead) is protected, or
 * undefined. `roots` are the workspace and home as given and as resolved.
 */
export function protectedBecause(
  paths: readonly string[],
  roots: readonly PathBases[],
  ctx: ProtectionContext,
): string | undefined {
  let home: string[] | undefined;
  const compile = (list: readonly string[] = []) =>
    list.map((text) => ({ text, pattern: parsePathPattern(text) }));
  const guards: Guards = {
    roots,
    homeDirs: () => (home ??= ctx.configHome ? homeTargets(ctx.configHome) : []),
    protect: compile(ctx.protect),
    unprotect: compile(ctx.unprotect),
    runs: ctx.runs ?? [],
  };
  for (const path of paths) {
    const why = whyProtected(path, guards);
    if (why) return `${path} is protected (${why})`;
  }
  return undefined;
}

function whyProtected(path: string, guards: Guards): string | undefined {
  const { roots } = guards;
  const letGo = () =>
    guards.unprotect.some(({ pattern }) => roots.some((base) => matchesPath(pattern, path, base)));
  for (const base of roots) {
    const rel = inside(base.workspace, path);
    if (rel === undefined) continue;
    const builtin = BUILTIN.find(({ pattern }) => pattern.test(rel));
    // `.git` itself stays protected whatever `unprotect` says, as git's control names do.
    if (builtin && (builtin.entry === ".git" || !letGo()))
      return `${builtin.entry}: ${builtin.why}`;
    if (rel !== "" && CONTROL_NAMES.has(basename(rel).toLowerCase())) {
      return `${basename(rel)}: a name git uses to recognise or find a git directory, which can run commands`;
    }
    const lookalike = gitLookalike(rel);
    if (lookalike && !letGo()) return lookalike;
  }
  const run = guards.runs.find((target) => runBy(target.path, path));
  if (run && !letGo()) return `run by ${run.by}`;
  if (guards.homeDirs().some((dir) => inside(dir, path) !== undefined)) {
    return "your codewhale home: your config, instructions and sessions";
  }
  for (const { text, pattern } of guards.protect) {
    if (roots.some((base) => matchesPath(pattern, path, base))) return `protected_paths "${text}"`;
  }
  const gitDir = enclosingGitDir(path, roots);
  return gitDir ? `it makes or changes the git directory ${gitDir}` : undefined;
}

/**
 * Why `rel` is named like a git directory's own file: a `config` anywhere, or a hook git runs
 * directly in a folder named `hooks`. Neither is a git directory yet; each is one `HEAD` away.
 */
function gitLookalike(rel: string): string | undefined {
  const name = basename(rel);
  if (LOOKALIKE_NAMES.has(name.toLowerCase())) {
    return `${name}: named like a git directory's config, whose core.fsmonitor and core.pager run commands`;
  }
  const folder = basename(dirname(rel));
  if (folder.toLowerCase() === "hooks" && HOOK_NAMES.has(name.toLowerCase())) {
    return `${folder}/${name}: named like a git hook, which git runs on commit, checkout or merge`;
  }
  return undefined;
}

/** Whether `path` is the run target (or under it, a hooks folder), as given or resolved. */
function runBy(target: string, path: string): boolean {
  return inside(target, path) !== undefined || inside(realOr(target), path) !== undefined;
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
 * write is done: it holds a HEAD file and another of git's entries, or a `config` file and
 * `objects/` or `refs/`, counting the one the write creates. So a git directory built file by file (`config`, `objects/`, `refs/`, then `HEAD`, in
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

/**
 * Whether `dir` is git-shaped once `added` (its entry the write creates or changes) exists: a
 * HEAD file with another of git's entries, or a `config` file with `objects/` or `refs/`.
 */
function isGitDirAfter(dir: string, added: string, addsFile: boolean): boolean {
  const holds = (entries: readonly string[]) =>
    entries.some((entry) => added === entry.toLowerCase() || exists(join(dir, entry)));
  const hasFile = (name: string) =>
    (addsFile && added === name.toLowerCase()) || isKind(join(dir, name), "file");
  if (hasFile("HEAD")) return holds(GIT_DIR_ENTRIES);
  return hasFile("config") && holds(GIT_STORE_ENTRIES);
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
