// The workspace's protected paths (`.git/hooks`, `.git/config`, `.codewhale`, `.claude`, and
// what runs on the host unasked: `.mcp.json`, `.husky`, `.envrc`, `.vscode`…) for one
// sandboxed command, read from the disk when it starts: one that exists is bound read-only; one
// that does not gets an empty read-only mount point, so the command cannot create it either
// (not the run-on-host files: sandbox-run-files.ts sets aside one it created); `.git` itself is
// bound to itself so it cannot be renamed away and rebuilt (an empty `.git`, such as a mount
// point kept from an earlier command, is read-only instead); the rest of git's metadata that can run a program (commondir, submodules) is found by
// sandbox-git-paths.ts.
// bwrapArgs (sandbox-policy.ts) adds the mounts; runCommand and bash's editor terminals hold the
// mount points around the run (sandbox-placeholders.ts). Commands only (a private /tmp).
import { opendirSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isInside, kindOf } from "./path-kind.ts";
import { type EmptyDirMount, emptyDirMounts } from "./sandbox-empty-dir.ts";
import type { GitKind, GitPath } from "./sandbox-git-paths.ts";
import { gitMetadataPaths } from "./sandbox-git-paths.ts";
import type { SandboxPolicy } from "./sandbox-policy.ts";

/** Inside the workspace, relative: each with the kind a missing one's mount point has. */
const PROTECTED = [
  [".git/hooks", "dir"],
  [".git/config", "file"],
  [".codewhale", "dir"],
  [".claude", "dir"],
] as const;

/**
 * What a tool on this machine runs without the user naming it (a coding agent's MCP servers,
 * git's hook managers, direnv, an editor opening the folder, a package manager's or toolchain's
 * config, mise): read-only in
 * the workspace. A missing directory gets a mount point (an empty directory, kept for the
 * session, which git passes over); a missing file none (an empty file would show in `git
 * status`, and a `/dev/null` one breaks `git add -A`): sandbox-run-files.ts renames aside one
 * the command created, as it ends. The RFC of 2026-12-06 (sandbox) says why each is here and what is not.
 */
export const RUN_ON_HOST_DIRS = [
  ".husky",
  ".githooks",
  ".vscode",
  ".devcontainer",
  ".idea",
  ".zed",
  ".helix",
  ".cursor",
  ".cargo",
  ".mise",
] as const;
export const RUN_ON_HOST_FILES = [
  ".mcp.json",
  ".gitmodules",
  ".envrc",
  ".devcontainer.json",
  ".nvim.lua",
  ".nvimrc",
  ".exrc",
  ".pre-commit-config.yaml",
  "lefthook.yml",
  ".lefthook.yml",
  "lefthook-local.yml",
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnpmfile.cjs",
  "mise.toml",
  ".mise.toml",
] as const;

/** `commondir`: a file mount point holding "." (sandbox-git-paths.ts), kept for the session. */
type Kind = GitKind;

/** A path that does not exist, and the empty read-only mount point the command gets there. */
export interface MissingPath {
  path: string;
  kind: Kind;
}

export interface Protection {
  args: string[];
  /** The mount points to create before bwrap starts (else bwrap creates them on the host). */
  missing: MissingPath[];
  /** The protected paths that exist, bound read-only (with the kind a missing one would have). */
  present: MissingPath[];
  /** The paths the arguments cover (for the refusal note and to skip policy.readOnly's). */
  covered: string[];
  /** The RUN_ON_HOST_FILES missing now, by name: set aside if the command creates one. */
  absentFiles: string[];
  /** The command's empty read-only directories (here and bwrapArgs' hidden ones), checked once. */
  mountEmpty: EmptyDirMount;
}

/** Whether a policy gets the mount points: a command's, which may write the workspace. */
function protectsMissing(policy: SandboxPolicy): boolean {
  return policy.mode === "workspace-write" && policy.tmp === "private";
}

/** The workspace's protected paths, missing ones included (`.git` itself when it is missing). */
export function protectedCandidates(policy: SandboxPolicy): string[] {
  if (!protectsMissing(policy)) return [];
  const git = join(policy.workspace, ".git");
  const paths = [...PROTECTED.map(([rel]) => rel), ...RUN_ON_HOST_DIRS, ...RUN_ON_HOST_FILES].map(
    (rel) => join(policy.workspace, rel),
  );
  const gitKind = gitKindOf(git);
  if (gitKind === "missing") return [git, ...paths];
  if (gitKind === "link") return paths;
  return [...paths, ...gitMetadataPaths(policy.workspace, git, gitKind).map((p) => p.path)];
}

/** `.git`'s kind, an empty directory counted as missing: no repository, it must stay empty. */
function gitKindOf(git: string): ReturnType<typeof kindOf> {
  const kind = kindOf(git);
  return kind === "dir" && isEmptyDir(git) ? "missing" : kind;
}

/** The bwrap arguments protecting the workspace of `policy` now; empty when it gets none. */
export function workspaceProtection(policy: SandboxPolicy): Protection {
  const out: Protection = {
    args: [],
    missing: [],
    present: [],
    covered: [],
    absentFiles: [],
    mountEmpty: emptyDirMounts(policy.writable),
  };
  if (!protectsMissing(policy)) return out;
  const git = join(policy.workspace, ".git");
  const gitKind = gitKindOf(git);
  if (gitKind === "missing") placeholder(out, git, "dir");
  // A git file (a worktree's `gitdir:` link) could be pointed at a directory of the command's.
  else if (gitKind === "file") readOnly(out, git, "file");
  // Its own mount point: `mv .git .git2 && mkdir -p .git/hooks` fails (EBUSY).
  else if (gitKind === "dir") {
    bind(out, git);
    out.present.push({ path: git, kind: "dir" });
  }
  for (const [rel, kind] of PROTECTED) {
    if (rel.startsWith(".git/") && gitKind !== "dir") continue;
    protect(out, policy, { path: join(policy.workspace, rel), kind, mountPoint: true });
  }
  for (const rel of RUN_ON_HOST_DIRS) {
    protect(out, policy, {
      path: join(policy.workspace, rel),
      kind: "dir",
      mountPoint: true,
    });
  }
  // Never mount points: left out of `present` too, so an empty one of the user's is never
  // taken for one and removed (sandbox-placeholders.ts).
  for (const rel of RUN_ON_HOST_FILES) {
    const path = join(policy.workspace, rel);
    if (kindOf(path) === "missing") {
      out.absentFiles.push(rel);
      continue;
    }
    // `args` and `covered` are out's own arrays; `present` is not.
    const found = { ...out, present: [] };
    protect(found, policy, { path, kind: "file", mountPoint: false });
  }
  // What else in the repository's metadata can make git run a program (commondir, submodules).
  if (gitKind === "dir" || gitKind === "file") {
    for (const path of gitMetadataPaths(policy.workspace, git, gitKind)) {
      protect(out, policy, path);
    }
  }
  return out;
}

/** One protected path: read-only as it is, or a mount point where it is missing. */
function protect(
  out: Protection,
  policy: SandboxPolicy,
  { path, kind, mountPoint }: GitPath,
): void {
  const found = kindOf(path);
  if (found === "missing") {
    if (mountPoint) placeholder(out, path, kind);
  } else if (found !== "link") readOnly(out, path, kind);
  else {
    // A symlink: where it leads is read-only as it is now; one that leads nowhere yet gets
    // its mount point where it leads, when that is in the workspace (else it is read-only).
    const target = linkTarget(path);
    if (target?.exists) readOnly(out, target.path, kind);
    else if (mountPoint && target && isInside(policy.workspace, target.path))
      placeholder(out, target.path, kind);
  }
}

function bind(out: Protection, path: string): void {
  out.args.push("--bind", path, path);
}

function readOnly(out: Protection, path: string, kind: Kind): void {
  out.args.push("--ro-bind", path, path);
  out.present.push({ path, kind });
  out.covered.push(path);
}

/** An empty read-only mount point: to be created when `path` is missing, else over it. */
function placeholder(out: Protection, path: string, kind: Kind): void {
  if (kind === "dir") out.args.push(...out.mountEmpty(path));
  // Created empty (a file) or holding "." (commondir) before the command starts
  // (sandbox-placeholders.ts), bound over itself: git reads an empty config; `/dev/null` bound
  // there reads as "Permission denied" (a device on a user namespace's mount), failing all git.
  else out.args.push("--ro-bind", path, path);
  if (kindOf(path) === "missing") out.missing.push({ path, kind });
  else out.present.push({ path, kind });
  out.covered.push(path);
}

/**
 * Where a symlink leads: its real path when something is there, the place itself when nothing
 * is there yet (and its parent exists), else null.
 */
function linkTarget(path: string): { path: string; exists: boolean } | null {
  try {
    return { path: realpathSync(path), exists: true };
  } catch {
    try {
      const target = resolve(dirname(path), readlinkSync(path));
      const dangling = kindOf(target) === "missing" && kindOf(dirname(target)) === "dir";
      return dangling ? { path: target, exists: false } : null;
    } catch {
      return null;
    }
  }
}

function isEmptyDir(path: string): boolean {
  try {
    const dir = opendirSync(path);
    const first = dir.readSync();
    dir.closeSync();
    return first === null;
  } catch {
    return false;
  }
}
