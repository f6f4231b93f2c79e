// The empty mount points a sandboxed command gets over the workspace's missing protected paths
// (sandbox-protect.ts): bwrap can only mount on a path that exists, and the workspace is the
// host's own directory, so each one is created on the host before a command needs it. An empty
// directory (`.claude/`, `.codewhale/`, `.git`) is kept from the session's first command to its
// end (removeIdlePlaceholders): removing one a namespace mounted on costs milliseconds, and git
// and checkpoints pass over empty directories. A file (`.git/config`) is cheap to remove and a
// checkpoint would record it: it goes as soon as no command of this process runs. A `commondir`
// one holds "." (git on the host reads it meanwhile) and is kept like a directory.
// Other codewhale processes sandboxing commands in the same workspace leave a lease (a file
// named by their pid) in a per-user directory, and the last one out removes the mount points.
// Removing one while a command still runs would lift its protection: the kernel unmounts what
// was mounted on a path removed in another namespace; so only idle ones are ever removed.
// Held by runCommand and bash's editor terminals.
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { SandboxPolicy } from "./sandbox-policy.ts";
import type { MissingPath, Protection } from "./sandbox-protect.ts";
import { workspaceProtection } from "./sandbox-protect.ts";
import { onShutdown } from "./shutdown.ts";

/** The mount points of one workspace this process holds, from its first command to its end. */
interface Held {
  /** Commands of this process running with them now. */
  count: number;
  /** Mount points this process created, or found empty while another process held them. */
  paths: Map<string, MissingPath["kind"]>;
  /** Where this process's lease on the workspace is (computed once). */
  leases: string;
}

const held = new Map<string, Held>();
let hooked = false;

/**
 * Creates the mount points `policy`'s command needs in its workspace (a directory: once a
 * session), and returns the protection to start it with; `release`, called once the command has
 * ended, removes the files among them when no other command holds them.
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
  let entry = held.get(workspace);
  // Empty ones not ours may be another process's mount points: ours to remove if we end last.
  const shared = present.filter(
    (point) => !entry?.paths.has(point.path) && isEmpty(point.path, point.kind),
  );
  if (missing.length === 0 && shared.length === 0 && !entry) return () => {};
  entry ??= open(workspace);
  entry.count += 1;
  for (const point of missing) if (create(point)) entry.paths.set(point.path, point.kind);
  // Adopted when another process holds them, or held them and ended without removing them.
  if (shared.length > 0 && otherLeases(entry.leases) !== "none") {
    for (const point of shared) entry.paths.set(point.path, point.kind);
  }
  const current = entry;
  return once(() => {
    current.count -= 1;
    if (current.count === 0) removeFiles(current);
  });
}

/** The file mount points of `entry`, once no command of this process needs them. */
function removeFiles(entry: Held): void {
  const files = [...entry.paths].filter(([, kind]) => kind === "file");
  if (files.length === 0 || otherLeases(entry.leases) === "live") return;
  for (const [path] of files) {
    removeIfEmpty(path, "file");
    entry.paths.delete(path);
  }
}

/** Starts holding `workspace`: the lease, and the removal at the process's end. */
function open(workspace: string): Held {
  const entry: Held = { count: 0, paths: new Map(), leases: leaseDirOf(workspace) };
  held.set(workspace, entry);
  writeLease(entry.leases);
  if (!hooked) {
    hooked = true;
    onShutdown(removeIdlePlaceholders);
  }
  return entry;
}

/**
 * At a session's end (and the process's): the mount points of every workspace where no
 * command of this process runs are removed, unless another live process holds a lease there.
 * One a command still runs with stays (the next session start's sweep removes it).
 */
export function removeIdlePlaceholders(): void {
  for (const [workspace, entry] of held) {
    if (entry.count > 0) continue;
    held.delete(workspace);
    removeLease(entry.leases);
    const others = otherLeases(entry.leases);
    removeEmptyLeaseDir(entry.leases);
    if (others === "live") continue;
    // Deepest first: `.git/hooks` before the `.git` it was created in.
    const paths = [...entry.paths].sort(([a], [b]) => b.length - a.length);
    for (const [path, kind] of paths) removeIfEmpty(path, kind);
  }
}

/**
 * At a session's start: when only ended processes hold leases on the policy's workspace (one
 * was killed), their leftover mount points (protected paths that are empty) and leases are
 * removed, so a kill leaves nothing past the next start.
 */
export function sweepStalePlaceholders(policy: SandboxPolicy): void {
  const workspace = policy.workspace;
  const leases = leaseDirOf(workspace);
  if (held.has(workspace) || otherLeases(leases) !== "stale") return;
  const { missing, present } = workspaceProtection(policy);
  const empty = [...missing, ...present].filter((point) => isEmpty(point.path, point.kind));
  for (const point of empty.sort((a, b) => b.path.length - a.path.length))
    removeIfEmpty(point.path, point.kind);
  removeEmptyLeaseDir(leases);
}

/** Creates one mount point; false when something is there already (then it is not ours). */
function create(point: MissingPath): boolean {
  try {
    if (point.kind === "dir") mkdirSync(point.path, { mode: 0o755 });
    else if (point.kind === "file") closeSync(openSync(point.path, "wx", 0o644));
    else writeFileSync(point.path, COMMONDIR, { flag: "wx", mode: 0o644 });
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

/** What a `commondir` mount point holds: the gitdir itself, so git on the host keeps working. */
const COMMONDIR = ".";

/** Whether `path` is as its mount point was made: an empty directory or file, or a "." file. */
function isEmpty(path: string, kind: MissingPath["kind"]): boolean {
  try {
    const stat = lstatSync(path);
    if (kind === "dir") return stat.isDirectory() && readdirSync(path).length === 0;
    if (kind === "commondir") {
      return stat.isFile() && stat.size === 1 && readFileSync(path, "utf8") === COMMONDIR;
    }
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

/** The per-user directory of the leases on `workspace` (a path; made only by writeLease). */
function leaseDirOf(workspace: string): string {
  const uid = process.getuid?.() ?? 0;
  const hash = createHash("sha256").update(workspace).digest("hex").slice(0, 16);
  return join(tmpdir(), `codewhale-sandbox-${uid}`, hash);
}

/**
 * `dir` when its parent is ours alone (made first when `create`), "" when it does not exist
 * (and is not to be made), or null when it is not ours alone.
 */
function checkedLeaseDir(dir: string, create: boolean): string | null {
  const uid = process.getuid?.() ?? 0;
  const root = dirname(dir);
  try {
    if (create) mkdirSync(root, { mode: 0o700, recursive: true });
    else if (!existsSync(root)) return "";
    const stat = lstatSync(root);
    if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return null;
    if (create) mkdirSync(dir, { recursive: true });
    else if (!existsSync(dir)) return "";
    return dir;
  } catch {
    return null;
  }
}

function writeLease(leases: string): void {
  // Twice: another process's removeLease may take the empty directory away in between.
  for (let attempt = 0; attempt < 2; attempt++) {
    const dir = checkedLeaseDir(leases, true);
    try {
      if (dir) writeFileSync(join(dir, String(process.pid)), "");
      return;
    } catch {
      // Without a lease, another process ending may remove the mount points early (see above).
    }
  }
}

function removeLease(leases: string): void {
  const dir = checkedLeaseDir(leases, false);
  if (!dir) return;
  try {
    unlinkSync(join(dir, String(process.pid)));
  } catch {
    // Gone already.
  }
}

/** Nothing left behind in the temp directory once no process holds a lease on the workspace. */
function removeEmptyLeaseDir(leases: string): void {
  const dir = checkedLeaseDir(leases, false);
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
 * Whether another process holds a lease on the workspace (`live`), only ended ones did
 * (`stale`, their leases are removed), or none.
 */
function otherLeases(leases: string): "live" | "stale" | "none" {
  const dir = checkedLeaseDir(leases, false);
  if (dir === "") return "none";
  // Without a directory of our own, another process may hold them: leave them.
  if (!dir) return "live";
  let found: "stale" | "none" = "none";
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return "none"; // removed by the last other process meanwhile
  }
  for (const name of names) {
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
