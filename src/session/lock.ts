// The one-writer rule: a session's writer holds `<log>.lock` (pid and host). A lock whose
// process is gone (same host) is taken over; a live one is refused with SessionLockedError.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { SessionLockedError, SessionWriteError } from "../errors.ts";

interface LockOwner {
  pid: number;
  host: string;
}

/** Takes the writer lock of a session log; returns the function that releases it. */
export function acquireWriterLock(logPath: string, sessionId: string): () => void {
  const lockPath = `${logPath}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(lockPath)) return () => release(lockPath);
    const owner = readOwner(lockPath);
    if (owner && !isStale(owner)) throw new SessionLockedError(sessionId, owner.pid, owner.host);
    try {
      unlinkSync(lockPath);
    } catch {
      // Another process took it over first; the next attempt reads the new owner.
    }
  }
  const owner = readOwner(lockPath);
  throw new SessionLockedError(sessionId, owner?.pid ?? -1, owner?.host ?? "unknown host");
}

function tryCreate(lockPath: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname() }));
  } catch (error) {
    // A full disk: leave no empty lock behind, and name the log that could not be opened.
    closeSync(fd);
    unlinkSync(lockPath);
    throw new SessionWriteError(lockPath, error);
  }
  closeSync(fd);
  return true;
}

function readOwner(lockPath: string): LockOwner | null {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, "utf8")) as Partial<LockOwner>;
    if (typeof parsed.pid === "number" && typeof parsed.host === "string") {
      return { pid: parsed.pid, host: parsed.host };
    }
  } catch {
    // Missing or torn lock file: treated as stale.
  }
  return null;
}

function isStale(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function release(lockPath: string): void {
  try {
    const owner = readOwner(lockPath);
    if (owner?.pid === process.pid) unlinkSync(lockPath);
  } catch {
    // Already gone.
  }
}
