// The files in the workspace's repository metadata, beyond `.git/hooks` and `.git/config`, that
// can make git run a program later on the host: `commondir` (git then takes config and hooks
// from where it points), `config.worktree` (with extensions.worktreeConfig), `.git/modules`
// (submodules' gitdirs, read-only as a whole) and the `.git` files of their checkouts, linked
// worktrees' gitdirs (`.git/worktrees/*`), a linked worktree's own gitdir when it lies in the
// workspace, and files in the workspace a config includes. Read from the disk (no git spawned)
// at each command start by sandbox-protect.ts, which binds each read-only, or puts a mount point
// where one is missing.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ConfigEntry } from "./git-config-scan.ts";
import { configTrue, configValue, readGitConfig } from "./git-config-scan.ts";
import { isInside, kindOf } from "./path-kind.ts";

/**
 * `dir` and `file` as in sandbox-protect.ts; `commondir`: a file whose mount point holds "."
 * (an empty one would break git on the host while the session runs), kept for the session.
 */
export type GitKind = "dir" | "file" | "commondir";

export interface GitPath {
  path: string;
  kind: GitKind;
  /** A missing one gets a mount point (else only an existing one is bound read-only). */
  mountPoint: boolean;
}

/** Submodules nest; deeper than this is left alone (and a cycle of symlinks cannot loop). */
const MAX_DEPTH = 4;
/**
 * Checkout `.git` files protected, at most (a mount each); past them, a repointed one is left to
 * the check after the command (sandbox-git-watch.ts), which reads where it leads.
 */
const MAX_CHECKOUT_FILES = 8;

/** The paths to protect in the repository at `git` (the workspace's `.git`, a dir or a file). */
export function gitMetadataPaths(workspace: string, git: string, kind: "dir" | "file"): GitPath[] {
  const out: GitPath[] = [];
  if (kind === "dir") {
    gitDirPaths(workspace, git, out);
    return out;
  }
  // A linked worktree: its gitdir (and the common dir it names), where they are in the workspace.
  const gitdir = gitFileTarget(git);
  if (!gitdir || !isInside(workspace, gitdir)) return out;
  const common = commonDirOf(gitdir);
  if (common && isInside(workspace, common)) {
    out.push({ path: join(common, "config"), kind: "file", mountPoint: true });
    out.push({ path: join(common, "hooks"), kind: "dir", mountPoint: true });
  }
  worktreeGitDirPaths(gitdir, common ?? gitdir, out);
  return out;
}

/** `.git/commondir`, `config.worktree`, `.git/modules`, and linked worktrees' gitdirs. */
function gitDirPaths(workspace: string, dir: string, out: GitPath[]) {
  const config = readGitConfig(join(dir, "config"));
  includedFiles(workspace, dir, config, out);
  out.push({ path: join(dir, "commondir"), kind: "commondir", mountPoint: true });
  const perWorktree = configTrue(configValue(config, "extensions.worktreeconfig"));
  out.push({ path: join(dir, "config.worktree"), kind: "file", mountPoint: perWorktree });
  for (const id of listDir(join(dir, "worktrees"))) {
    worktreeGitDirPaths(join(dir, "worktrees", id), dir, out);
  }
  // Submodules' gitdirs (their config, hooks, commondir, nested modules): one read-only mount
  // for all (a mount per file costs each command's start a little; a repository may have many),
  // then the `.git` files of their checkouts, which could be pointed at another gitdir.
  const modules = join(dir, "modules");
  if (kindOf(modules) !== "dir") return;
  out.push({ path: modules, kind: "dir", mountPoint: false });
  const files: string[] = [];
  checkoutGitFiles(workspace, modules, files, 0);
  for (const file of files.slice(0, MAX_CHECKOUT_FILES)) {
    out.push({ path: file, kind: "file", mountPoint: false });
  }
}

/**
 * The files a config includes (`include.path`, `includeIf.*.path`, and what those include, four
 * deep) that lie in the workspace; a missing one gets a mount point when its directory exists
 * (else a command could write it: git reads an include that appears later).
 */
function includedFiles(
  workspace: string,
  dir: string,
  config: ConfigEntry[],
  out: GitPath[],
  depth = 0,
) {
  for (const { name, value } of config) {
    if (!/^include(if\..+)?\.path$/i.test(name) || value === "" || value.startsWith("~")) continue;
    const path = resolve(dir, value);
    if (!isInside(workspace, path) || out.some((known) => known.path === path)) continue;
    out.push({ path, kind: "file", mountPoint: kindOf(dirname(path)) === "dir" });
    // What it includes in turn (relative to its own directory), as git reads it.
    if (depth < MAX_DEPTH && kindOf(path) === "file")
      includedFiles(workspace, dirname(path), readGitConfig(path), out, depth + 1);
  }
}

/**
 * The checkout `.git` files (`gitdir: ../.git/modules/x`) of the submodules whose gitdirs are
 * under `modules` (a name may hold slashes: `modules/a/b`; nested ones under `x/modules`), found
 * from each module's `core.worktree`.
 */
function checkoutGitFiles(workspace: string, modules: string, files: string[], depth: number) {
  for (const name of listDir(modules)) {
    if (files.length >= MAX_CHECKOUT_FILES) return;
    const dir = join(modules, name);
    if (kindOf(dir) !== "dir") continue;
    if (kindOf(join(dir, "HEAD")) !== "file") {
      if (depth < MAX_DEPTH) checkoutGitFiles(workspace, dir, files, depth + 1);
      continue;
    }
    const worktree = configValue(readGitConfig(join(dir, "config")), "core.worktree");
    const file = worktree ? join(resolve(dir, worktree), ".git") : null;
    if (file && isInside(workspace, file) && kindOf(file) === "file") files.push(file);
    if (depth < MAX_DEPTH) checkoutGitFiles(workspace, join(dir, "modules"), files, depth + 1);
  }
}

/** A linked worktree's gitdir: `commondir` (which must stay as it is) and `config.worktree`. */
function worktreeGitDirPaths(gitdir: string, common: string, out: GitPath[]): void {
  if (kindOf(gitdir) !== "dir") return;
  out.push({ path: join(gitdir, "commondir"), kind: "file", mountPoint: false });
  const perWorktree = configTrue(
    configValue(readGitConfig(join(common, "config")), "extensions.worktreeconfig"),
  );
  out.push({ path: join(gitdir, "config.worktree"), kind: "file", mountPoint: perWorktree });
}

/** The gitdir a `.git` file names (`gitdir: PATH`, relative to the file's directory), or null. */
export function gitFileTarget(file: string): string | null {
  try {
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(file, "utf8"));
    return match?.[1] ? resolve(dirname(file), match[1]) : null;
  } catch {
    return null;
  }
}

/** Where a gitdir's `commondir` points (relative to the gitdir), or null without one. */
export function commonDirOf(gitdir: string): string | null {
  try {
    const text = readFileSync(join(gitdir, "commondir"), "utf8").trim();
    return text ? resolve(gitdir, text) : null;
  } catch {
    return null;
  }
}

function listDir(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}
