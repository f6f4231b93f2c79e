// The workspace's protected paths (`.git/hooks`, `.git/config`, `.codewhale`, `.claude`,
// `.mcp.json`) for one sandboxed command, read from the disk when it starts: one that exists is
// bound read-only; one that does not gets an empty read-only mount point, so the command cannot
// create it either; `.git` itself is bound to itself so it cannot be renamed away and rebuilt.
// bwrapArgs (sandbox-policy.ts) adds the mounts; runCommand and bash's editor terminals hold the
// mount points around the run (sandbox-placeholders.ts). Commands only (a private /tmp).
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { SandboxPolicy } from "./sandbox-policy.ts";

/** Inside the workspace, relative: each with the kind a missing one's mount point has. */
const PROTECTED = [
  [".git/hooks", "dir"],
  [".git/config", "file"],
  [".codewhale", "dir"],
  [".claude", "dir"],
  [".mcp.json", "file"],
] as const;

type Kind = "dir" | "file";

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
}

/** Whether a policy gets the mount points: a command's, which may write the workspace. */
function protectsMissing(policy: SandboxPolicy): boolean {
  return policy.mode === "workspace-write" && policy.tmp === "private";
}

/** The workspace's protected paths, missing ones included (`.git` itself when it is missing). */
export function protectedCandidates(policy: SandboxPolicy): string[] {
  if (!protectsMissing(policy)) return [];
  const git = join(policy.workspace, ".git");
  const paths = PROTECTED.map(([rel]) => join(policy.workspace, rel));
  return kindOf(git) === "missing" ? [git, ...paths] : paths;
}

/** The bwrap arguments protecting the workspace of `policy` now; empty when it gets none. */
export function workspaceProtection(policy: SandboxPolicy): Protection {
  const out: Protection = { args: [], missing: [], present: [], covered: [] };
  if (!protectsMissing(policy)) return out;
  const git = join(policy.workspace, ".git");
  const gitKind = kindOf(git);
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
    const path = join(policy.workspace, rel);
    const found = kindOf(path);
    if (found === "missing") placeholder(out, path, kind);
    else if (found !== "link") readOnly(out, path, kind);
    else {
      // A symlink: policy.readOnly binds where it leads; one that leads nowhere yet gets its
      // mount point where it leads, when that is in the workspace (else it is read-only anyway).
      const target = danglingTarget(path);
      if (target && isInside(policy.workspace, target)) placeholder(out, target, kind);
    }
  }
  return out;
}

function bind(out: Protection, path: string): void {
  out.args.push("--bind", path, path);
}

function readOnly(out: Protection, path: string, kind: Kind): void {
  out.args.push("--ro-bind", path, path);
  out.present.push({ path, kind });
  out.covered.push(path);
}

function placeholder(out: Protection, path: string, kind: Kind): void {
  if (kind === "dir") out.args.push("--tmpfs", path, "--remount-ro", path);
  else out.args.push("--ro-bind", "/dev/null", path);
  out.missing.push({ path, kind });
  out.covered.push(path);
}

/** Where a symlink leads when nothing is there yet (its parent exists), else null. */
function danglingTarget(path: string): string | null {
  try {
    realpathSync(path);
    return null;
  } catch {
    try {
      const target = resolve(dirname(path), readlinkSync(path));
      return kindOf(target) === "missing" && kindOf(dirname(target)) === "dir" ? target : null;
    } catch {
      return null;
    }
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

function kindOf(path: string): Kind | "missing" | "link" {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return "link";
    return stat.isDirectory() ? "dir" : "file";
  } catch {
    return "missing";
  }
}
