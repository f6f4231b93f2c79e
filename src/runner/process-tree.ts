// Stopping a detached child's whole process group on a timeout or an abort: SIGTERM, then
// SIGKILL after a grace, and SIGKILL at shutdown while the child may still run; and, once the
// child has exited, the same for anything it left running in its group (`sleep 300 &`). Used by
// the command runner (run-command.ts) and the hook runner (hooks/run-hook.ts).
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { onShutdown } from "./shutdown.ts";

/** How often to look whether a signalled group is gone, and how long to wait after SIGKILL. */
const POLL_MS = 10;
const AFTER_KILL_MS = 500;
/** More process creations per second than any machine manages: bounds how fast pids wrap. */
const MAX_FORKS_PER_SECOND = 50_000;

interface ProcessTreeKiller {
  /** SIGTERM to the group now, SIGKILL after the grace; later calls do nothing. */
  kill(): void;
  /** Drops the shutdown hook; call once the child has exited. */
  dispose(): void;
}

/** A killer for the process group led by `pid` (nothing happens when `pid` is undefined). */
function createProcessTreeKiller(pid: number | undefined, graceMs: number): ProcessTreeKiller {
  const signalGroup = (signal: NodeJS.Signals) => {
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  const removeHook = onShutdown(() => signalGroup("SIGKILL"));
  let killing = false;
  return {
    kill() {
      if (killing) return;
      killing = true;
      signalGroup("SIGTERM");
      setTimeout(() => signalGroup("SIGKILL"), graceMs).unref();
    },
    dispose: removeHook,
  };
}

export interface StopFlags {
  timedOut: boolean;
  cancelled: boolean;
}

/**
 * Kills the process group led by `pid` when `timeoutMs` passes or `signal` aborts, recording
 * which it was. `dispose` (once the child has exited) drops the timer, listener and hook.
 */
export function guardProcessTree(
  pid: number | undefined,
  options: { graceMs: number; timeoutMs?: number; signal?: AbortSignal },
): { flags: StopFlags; stopLeftovers(spare?: number | null): Promise<void>; dispose(): void } {
  const started = Date.now();
  const killer = createProcessTreeKiller(pid, options.graceMs);
  const flags: StopFlags = { timedOut: false, cancelled: false };
  const stop = (reason: keyof StopFlags) => {
    flags[reason] = true;
    killer.kill();
  };
  const timer =
    options.timeoutMs === undefined ? null : setTimeout(() => stop("timedOut"), options.timeoutMs);
  const onAbort = () => stop("cancelled");
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  return {
    flags,
    /**
     * Once the child has exited: whatever is left in its group gets SIGTERM, then SIGKILL after
     * the grace; resolves when none of it runs (zombies and `spare`, the lifeline's watcher,
     * aside) or soon after the SIGKILL.
     */
    async stopLeftovers(spare = null) {
      const runs = () => pid !== undefined && groupRuns(pid, spare, started);
      if (!runs()) return;
      killer.kill();
      const until = Date.now() + options.graceMs + AFTER_KILL_MS;
      while (Date.now() < until && runs()) await delay(POLL_MS);
    },
    dispose() {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      killer.dispose();
    },
  };
}

/**
 * Whether a process of group `pgid` other than `spare` still runs; zombies (exited, not yet
 * reaped) do not count. `startedAt`, when the group's leader was spawned, narrows the search.
 */
export function groupRuns(pgid: number, spare: number | null = null, startedAt?: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  return liveMember(pgid, spare, startedAt === undefined ? null : pidRange(pgid, startedAt));
}

/**
 * The pids a member of the group can have: a member was created after the leader, so while
 * pids cannot have wrapped around since (too little time for pid_max creations, and the last
 * pid allocated, from /proc/loadavg, is not below the leader's) only the leader's to the last.
 * Null when that cannot be known: then every pid is looked at.
 */
function pidRange(pgid: number, startedAt: number): { from: number; to: number } | null {
  const last = readNumber("/proc/loadavg", (text) => text.trim().split(" ").pop());
  const max = readNumber("/proc/sys/kernel/pid_max", (text) => text.trim());
  if (last === null || max === null || last < pgid) return null;
  const fastestWrapMs = (max / MAX_FORKS_PER_SECOND) * 1000;
  return Date.now() - startedAt < fastestWrapMs ? { from: pgid, to: last } : null;
}

function readNumber(path: string, pick: (text: string) => string | undefined): number | null {
  try {
    const value = Number(pick(readFileSync(path, "latin1")));
    return Number.isSafeInteger(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

/** Looks through /proc (within `range`) for a member of the group that is not a zombie. */
function liveMember(
  pgid: number,
  spare: number | null,
  range: { from: number; to: number } | null,
): boolean {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const name of names) {
    const code = name.charCodeAt(0);
    if (code < 0x30 || code > 0x39) continue;
    const pid = Number(name);
    if (pid === spare || (range && (pid < range.from || pid > range.to))) continue;
    const stat = readStat(name);
    if (stat === null) continue;
    // After the command name: state, ppid, pgrp, …
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ", 3);
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
}

function readStat(pid: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
}
