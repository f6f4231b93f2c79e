// Stopping a detached child's whole process group on a timeout or an abort: SIGTERM, then
// SIGKILL after a grace, and SIGKILL at shutdown while the child may still run. Used by the
// command runner (run-command.ts) and the hook runner (hooks/run-hook.ts), whose children run
// in their own process group (`spawn(…, { detached: true })`).
import { onShutdown } from "./shutdown.ts";

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
): { flags: StopFlags; dispose(): void } {
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
    dispose() {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      killer.dispose();
    },
  };
}
