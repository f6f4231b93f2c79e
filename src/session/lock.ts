// The one-writer rule: a session's writer holds `<log>.lock`. The record (lock-owner.ts) is
// written whole to a temporary file and link(2)ed into place, so nobody ever reads a partial
// lock. A lock whose owner is provably dead is replaced by rename(2) by the one process holding
// the claim `<lock>.break-<key>` for that exact file (key: its inode and bytes), taken by this
// same protocol. Why no two processes can both hold the lock (see docs/session-format.md):
//  1. The lock path changes only by link while absent, unlink by its live owner (release), or
//     rename over it by the claim holder of its current (inode, bytes).
//  2. A claim is a lock itself, so at most one process holds the claim for a given file.
//  3. The claim holder re-reads the lock after claiming and renames only if it is still that
//     file; until then nothing else can change it: link fails, its owner is dead (no release),
//     and any other breaker of it needs the claim. Records are unique (nonce), never reused.
// Called by writer.ts (create, resume) and session/repair.ts; `liveLockOwner` by resume's read.
import { hash, randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { SessionLockedError, SessionWriteError } from "../errors.ts";
import {
  bootTimeMs,
  isProvablyDead,
  type LockOwner,
  ownerRecord,
  parseOwner,
} from "./lock-owner.ts";

/** What a lock path held when it was read: its inode and its bytes. */
interface Seen {
  ino: number;
  mtimeMs: number;
  text: string;
}

/** Why a path could not be taken: the live holder, if its record names one. */
interface Refusal {
  owner: LockOwner | null;
}

/** A claim nested deeper than this means a chain of crashed breakers: refuse instead. */
const MAX_DEPTH = 4;
/** How long to wait for a live breaker to finish replacing a dead owner's lock. */
const BREAKER_WAIT_MS = 200;
const RECORD_LIMIT = 4096;
/** Link attempts when the lock keeps vanishing and reappearing under us. */
const MAX_ATTEMPTS = 1000;

/** Takes the writer lock of a session log; returns the function that releases it. */
export function acquireWriterLock(logPath: string, sessionId: string): () => void {
  const lockPath = `${logPath}.lock`;
  const record = ownerRecord();
  const tmp = `${lockPath}.tmp-${randomBytes(6).toString("hex")}`;
  try {
    writeFileSync(tmp, record, { flag: "wx", mode: 0o600 });
  } catch (error) {
    removeQuietly(tmp);
    throw new SessionWriteError(lockPath, error);
  }
  let refusal: Refusal | null;
  try {
    refusal = take(lockPath, tmp, record, 0);
  } finally {
    removeQuietly(tmp);
  }
  if (refusal) {
    const owner = refusal.owner;
    throw new SessionLockedError(sessionId, owner?.pid ?? -1, owner?.host ?? "", lockPath);
  }
  return () => release(lockPath, record);
}

/**
 * The live owner of a log's writer lock, or null when no lock is there or its owner is not
 * known to be alive. A reader that found a log changing under it asks this (session-open.ts).
 */
export function liveLockOwner(logPath: string): LockOwner | null {
  const seen = readSeen(`${logPath}.lock`);
  const owner = seen ? parseOwner(seen.text) : null;
  return owner && !isProvablyDead(owner) ? owner : null;
}

/** Makes `path` hold `record` (linked from `tmp`); returns null on success, else who holds it. */
function take(path: string, tmp: string, record: string, depth: number): Refusal | null {
  const until = Date.now() + BREAKER_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    if (linkNew(tmp, path)) return null;
    const seen = readSeen(path);
    if (seen === null) {
      if (attempt > MAX_ATTEMPTS) return { owner: null };
      continue; // released between the two calls: try to link again
    }
    const owner = parseOwner(seen.text);
    if (!isDead(owner, seen)) return { owner };
    if (depth >= MAX_DEPTH) return { owner };
    const claim = `${path}.break-${keyOf(seen)}`;
    const claimRefusal = take(claim, tmp, record, depth + 1);
    if (claimRefusal) {
      // A live process is replacing this dead owner's lock right now: wait to see who wins.
      if (Date.now() > until) return claimRefusal;
      pause(2);
      continue;
    }
    try {
      if (sameFile(readSeen(path), seen)) {
        replace(tmp, path);
        return null;
      }
    } finally {
      release(claim, record);
    }
  }
}

/** A record names no owner (torn, foreign): dead only when written before this boot. */
function isDead(owner: LockOwner | null, seen: Seen): boolean {
  if (owner) return isProvablyDead(owner);
  const boot = bootTimeMs();
  return boot !== null && seen.mtimeMs < boot;
}

function linkNew(tmp: string, path: string): boolean {
  try {
    linkSync(tmp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new SessionWriteError(path, error);
  }
}

/** Atomically puts a new hard link of `tmp` in place of whatever `path` is. */
function replace(tmp: string, path: string): void {
  const fresh = `${tmp}.${randomBytes(4).toString("hex")}`;
  try {
    linkSync(tmp, fresh);
    renameSync(fresh, path);
  } catch (error) {
    removeQuietly(fresh);
    throw new SessionWriteError(path, error);
  }
}

/**
 * The inode, time and bytes at `path`, or null when nothing is there. Never follows a symlink
 * and never blocks on a FIFO: such a lock reads as a record naming nobody.
 */
function readSeen(path: string): Seen | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    return { ino: -1, mtimeMs: Number.POSITIVE_INFINITY, text: `unreadable: ${code}` };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { ino: stats.ino, mtimeMs: stats.mtimeMs, text: "" };
    const buffer = Buffer.alloc(RECORD_LIMIT);
    const read = readSync(fd, buffer, 0, RECORD_LIMIT, 0);
    return { ino: stats.ino, mtimeMs: stats.mtimeMs, text: buffer.toString("utf8", 0, read) };
  } finally {
    closeSync(fd);
  }
}

function sameFile(now: Seen | null, before: Seen): boolean {
  return now !== null && now.ino === before.ino && now.text === before.text;
}

/** The claim name for one lock file: its inode and a digest of its bytes, hex. */
function keyOf(seen: Seen): string {
  return `${seen.ino.toString(16)}-${hash("sha256", seen.text, "hex").slice(0, 16)}`;
}

/** Removes `path` if it still holds `record` (ours: no one replaces a live owner's lock). */
function release(path: string, record: string): void {
  const seen = readSeen(path);
  if (seen?.text === record) removeQuietly(path);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function pause(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
