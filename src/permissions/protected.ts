// The files that give control over what runs: git's directory (config, hooks), codewhale's and
// Claude Code's settings, MCP and direnv files, VS Code tasks, the user's codewhale home, and
// the user's own `protected_paths`. An edit of one asks in every mode but bypass, whatever the
// allow rules say (evaluate.ts); exec's advice (ask.ts) reads the same verdict.
import type { Dirent } from "node:fs";
import { readdirSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
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
  }
  if (homeDirs().some((dir) => inside(dir, path) !== undefined)) {
    return "your codewhale home: your config, instructions and sessions";
  }
  for (const { text, pattern } of patterns) {
    if (roots.some((base) => matchesPath(pattern, path, base))) return `protected_paths "${text}"`;
  }
  const gitDir = enclosingGitDir(path, roots);
  return gitDir ? `inside the git directory ${gitDir}` : undefined;
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
 * The nearest directory above `path`, up to the workspace root, that git would take for a git
 * directory (a HEAD file and an objects/ directory or a commondir file): so the real git
 * directory a `.git` file points to (a worktree's, a submodule's) counts however it is named.
 */
function enclosingGitDir(path: string, roots: readonly PathBases[]): string | undefined {
  const workspaces = roots.map((base) => base.workspace);
  let dir = dirname(path);
  while (workspaces.some((root) => inside(root, dir) !== undefined)) {
    if (isGitDir(dir)) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

function isGitDir(dir: string): boolean {
  if (!isKind(`${dir}/HEAD`, "file")) return false;
  return isKind(`${dir}/objects`, "dir") || isKind(`${dir}/commondir`, "file");
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
