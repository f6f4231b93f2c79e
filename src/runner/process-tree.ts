// Killing a detached child's whole process group: SIGTERM, then SIGKILL after a grace, and
// SIGKILL at shutdown while the child may still run. Used by the command runner
// (run-command.ts) and the hook runner (hooks/run-hook.ts), whose children both run in their
// own process group (`spawn(…, { detached: true })`).
import { onShutdown } from "./shutdown.ts";

export interface ProcessTreeKiller {
  /** SIGTERM to the group now, SIGKILL after the grace; later calls do nothing. */
  kill(): void;
  /** Drops the shutdown hook; call once the child has exited. */
  dispose(): void;
}

/** A killer for the process group led by `pid` (nothing happens when `pid` is undefined). */
export function createProcessTreeKiller(
  pid: number | undefined,
  graceMs: number,
): ProcessTreeKiller {
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
