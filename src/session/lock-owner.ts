// Who holds a session lock, and whether that holder is provably dead. An owner record names the
// process by host, boot, pid namespace, pid and the pid's start time (from /proc), plus a random
// nonce, so a reused pid, a reboot or another container never passes for the owner. Used by
// lock.ts; anything not provably dead counts as alive (a refusal, never a second writer).
import { randomBytes } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

export interface LockOwner {
  pid: number;
  host: string;
  /** The kernel's boot id (Linux); a different one means the owner's machine rebooted since. */
  boot?: string;
  /** The pid namespace (Linux); a pid is only meaningful inside its own. */
  ns?: string;
  /** The pid's start time in clock ticks since boot (Linux): tells a reused pid apart. */
  start?: string;
  /** Random: makes every record unique, so a record compared byte for byte names one holder. */
  nonce?: string;
}

/** Reads a file from /proc, or null where there is none (not Linux, a process gone). */
function proc(path: string, read: (path: string) => string): string | null {
  try {
    return read(path).trim();
  } catch {
    return null;
  }
}

const readText = (path: string) => readFileSync(path, "utf8");

/** The stat fields after the command name, which may itself hold spaces and parentheses. */
function statFields(pid: number | "self"): string[] | null {
  const stat = proc(`/proc/${pid}/stat`, readText);
  if (stat === null) return null;
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** Field 22 of /proc/<pid>/stat (starttime); field 3 (state) is index 0 here. */
const START_INDEX = 22 - 3;

let self: LockOwner | undefined;

/** This process as a lock owner (without the nonce, added per record). */
function selfOwner(): LockOwner {
  if (self) return self;
  const owner: LockOwner = { pid: process.pid, host: hostname() };
  const boot = proc("/proc/sys/kernel/random/boot_id", readText);
  const ns = proc("/proc/self/ns/pid", readlinkSync);
  const start = statFields("self")?.[START_INDEX];
  if (boot) owner.boot = boot;
  if (ns) owner.ns = ns;
  if (start) owner.start = start;
  self = owner;
  return owner;
}

/** A fresh record for this process: one JSON line, unique by its nonce. */
export function ownerRecord(): string {
  return JSON.stringify({ ...selfOwner(), nonce: randomBytes(8).toString("hex") });
}

/** The owner a record names, or null when it is not one (torn, empty, foreign). */
export function parseOwner(text: string): LockOwner | null {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const { pid, host } = parsed;
  if (!Number.isSafeInteger(pid) || (pid as number) <= 0 || typeof host !== "string") return null;
  const owner: LockOwner = { pid: pid as number, host };
  for (const key of ["boot", "ns", "start", "nonce"] as const) {
    if (typeof parsed[key] === "string") owner[key] = parsed[key];
  }
  return owner;
}

/**
 * True only when the owner can no longer write: on this host, in this boot and pid namespace,
 * and its pid is gone, a zombie, or now a different process (another start time). A record
 * from before this boot is dead too. Another host or namespace can never be proven dead.
 */
export function isProvablyDead(owner: LockOwner): boolean {
  const me = selfOwner();
  if (owner.host !== me.host) return false;
  if (owner.boot && me.boot && owner.boot !== me.boot) return true;
  if (owner.ns && me.ns && owner.ns !== me.ns) return false;
  if (owner.pid === process.pid) return owner.start !== undefined && owner.start !== me.start;
  if (!pidExists(owner.pid)) return true;
  if (owner.start === undefined) return false;
  const fields = statFields(owner.pid);
  // Gone between the two looks: ask again, so a transient read failure proves nothing.
  if (fields === null) return !pidExists(owner.pid);
  const state = fields[0];
  return state === "Z" || state === "X" || fields[START_INDEX] !== owner.start;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** When this machine booted (ms since the epoch), or null where /proc/stat has no btime. */
export function bootTimeMs(): number | null {
  const stat = proc("/proc/stat", readText);
  const match = stat ? /^btime (\d+)$/m.exec(stat) : null;
  return match ? Number(match[1]) * 1000 : null;
}
