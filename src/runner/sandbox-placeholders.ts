// The empty mount points a sandboxed command gets over the workspace's missing protected paths
// (sandbox-protect.ts): bwrap can only mount on a path that exists, and the workspace is the
// host's own directory, so each one is created on the host just before the command starts and
// removed once no command needs it. Held by runCommand and bash's editor terminals.
// Commands of this process are counted; other codewhale processes sandboxing commands in the
// same workspace leave a lease (a file named by their pid) in a per-user directory, and the
// last one out removes the mount points. Removing one while a command still runs would lift
// its protection: the kernel unmounts what was mounted on a path removed in another namespace.
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { SandboxPolicy } from "./sandbox-policy.ts";
import type { MissingPath, Protection } from "./sandbox-protect.ts";
import { workspaceProtection } from "./sandbox-protect.ts";

interface Held {
  count: number;
  /** Mount points this process created, or found empty while another process held them. */
  paths: Map<string, MissingPath["kind"]>;
}

const held = new Map<string, Held>();

/**
 * Creates the mount points `policy`'s command needs in its workspace, and returns the
 * protection to start it with; `release`, called once the command has ended, removes them when
 * no other command holds them.
 */
export function holdPlaceholders(policy: SandboxPolicy): HeldProtection {
  const protection = workspaceProtection(policy);
  return { protection, release: hold(policy, protection) };
}

/** The protection of one command's start (for bwrapArgs) and its release. */
export interface HeldProtection {
  protection: Protection;
  release: () => void;
}

function hold(policy: SandboxPolicy, { missing, present }: Protection): () => void {
  const workspace = policy.workspace;
  // Empty ones may be another process's mount points: ours to remove if we end last.
  const shared = present.filter((point) => isEmpty(point.path, point.kind));
  let entry = held.get(workspace);
  if (missing.length === 0 && shared.length === 0 && !entry) return () => {};
  if (!entry) {
    entry = { count: 0, paths: new Map() };
    held.set(workspace, entry);
    writeLease(workspace);
  }
  entry.count += 1;
  for (const point of missing) if (create(point)) entry.paths.set(point.path, point.kind);
  // Adopted when another process holds them, or held them and ended without removing them.
  if (shared.length > 0 && otherLeases(workspace) !== "none") {
    for (const point of shared) entry.paths.set(point.path, point.kind);
  }
  return once(() => release(workspace));
}

/**
 * At a session's start: when only ended processes hold leases on the policy's workspace (one
 * was killed mid-command), their leftover mount points (protected paths that are empty) and
 * leases are removed, so a kill leaves nothing past the next start.
 */
export function sweepStalePlaceholders(policy: SandboxPolicy): void {
  const workspace = policy.workspace;
  if (held.has(workspace) || otherLeases(workspace) !== "stale") return;
  const { present } = workspaceProtection(policy);
  const empty = present.filter((point) => isEmpty(point.path, point.kind));
  for (const point of empty.sort((a, b) => b.path.length - a.path.length))
    removeIfEmpty(point.path, point.kind);
  removeEmptyLeaseDir(workspace);
}

function release(workspace: string): void {
  const entry = held.get(workspace);
  if (!entry) return;
  entry.count -= 1;
  if (entry.count > 0) return;
  held.delete(workspace);
  removeLease(workspace);
  const others = otherLeases(workspace);
  removeEmptyLeaseDir(workspace);
  if (others === "live") return;
  // Deepest first: `.git/hooks` before the `.git` it was created in.
  const paths = [...entry.paths].sort(([a], [b]) => b.length - a.length);
  for (const [path, kind] of paths) removeIfEmpty(path, kind);
}

/** Creates one mount point; false when something is there already (then it is not ours). */
function create(point: MissingPath): boolean {
  try {
    if (point.kind === "dir") mkdirSync(point.path, { mode: 0o755 });
    else closeSync(openSync(point.path, "wx", 0o444));
    return true;
  } catch {
    return isEmpty(point.path, point.kind);
  }
}

function removeIfEmpty(path: string, kind: MissingPath["kind"]): void {
  if (!isEmpty(path, kind)) return;
  try {
    if (kind === "dir") rmdirSync(path);
    else unlinkSync(path);
  } catch {
    // Filled or removed meanwhile: it is not a mount point of ours any more.
  }
}

function isEmpty(path: string, kind: MissingPath["kind"]): boolean {
  try {
    const stat = lstatSync(path);
    if (kind === "dir") return stat.isDirectory() && readdirSync(path).length === 0;
    return stat.isFile() && stat.size === 0;
  } catch {
    return false;
  }
}

function once(run: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    run();
  };
}

/**
 * The per-user directory of the leases on `workspace` (made unless `create` is false, when
 * "" means there is none), or null when it is not ours alone.
 */
function leaseDir(workspace: string, create = true): string | null {
  const uid = process.getuid?.() ?? 0;
  const root = join(tmpdir(), `codewhale-sandbox-${uid}`);
  try {
    if (create) mkdirSync(root, { mode: 0o700, recursive: true });
    else if (!existsSync(root)) return "";
    const stat = lstatSync(root);
    if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return null;
    const dir = join(root, createHash("sha256").update(workspace).digest("hex").slice(0, 16));
    if (create) mkdirSync(dir, { recursive: true });
    else if (!existsSync(dir)) return "";
    return dir;
  } catch {
    return null;
  }
}

function writeLease(workspace: string): void {
  // Twice: another process's removeLease may take the empty directory away in between.
  for (let attempt = 0; attempt < 2; attempt++) {
    const dir = leaseDir(workspace);
    try {
      if (dir) writeFileSync(join(dir, String(process.pid)), "");
      return;
    } catch {
      // Without a lease, another process ending may remove the mount points early (see above).
    }
  }
}

function removeLease(workspace: string): void {
  const dir = leaseDir(workspace, false);
  if (!dir) return;
  try {
    unlinkSync(join(dir, String(process.pid)));
  } catch {
    // Gone already.
  }
}

/** Nothing left behind in the temp directory once no process holds a lease on `workspace`. */
function removeEmptyLeaseDir(workspace: string): void {
  const dir = leaseDir(workspace, false);
  if (!dir) return;
  for (const empty of [dir, dirname(dir)]) {
    try {
      rmdirSync(empty);
    } catch {
      return; // another lease is there (or the directory is gone)
    }
  }
}

/**
 * Whether another process holds a lease on `workspace` (`live`), only ended ones did (`stale`,
 * their leases are removed), or none.
 */
function otherLeases(workspace: string): "live" | "stale" | "none" {
  const dir = leaseDir(workspace, false);
  if (dir === "") return "none";
  // Without a directory of our own, another process may hold them: leave them.
  if (!dir) return "live";
  let found: "stale" | "none" = "none";
  for (const name of readdirSync(dir)) {
    const pid = Number(name);
    if (pid === process.pid) continue;
    if (isAlive(pid)) return "live";
    found = "stale";
    try {
      unlinkSync(join(dir, name));
    } catch {
      // Removed by another process meanwhile.
    }
  }
  return found;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
