// Last-chance cleanup for the runner's resources (spill directories, running process groups):
// hooks run synchronously on normal exit, on uncaught errors, and on SIGINT/SIGTERM/SIGHUP when
// nobody else handles the signal (then the process still dies by it, as Node's default would).

type Hook = () => void;

const hooks = new Set<Hook>();
let installed = false;

/** Registers a hook; returns its removal. Hooks must be synchronous and idempotent. */
export function onShutdown(hook: Hook): () => void {
  install();
  hooks.add(hook);
  return () => hooks.delete(hook);
}

export function runShutdownHooks(): void {
  for (const hook of [...hooks]) {
    hooks.delete(hook);
    try {
      hook();
    } catch {
      // Best effort at shutdown.
    }
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on("exit", runShutdownHooks);
  process.on("uncaughtExceptionMonitor", runShutdownHooks);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    // Alone, we clean up and die by the signal; when someone else handles it (the agent
    // cancelling a turn), the session goes on and the exit hook cleans up later.
    const onSignal = () => {
      if (process.listenerCount(signal) > 1) return;
      runShutdownHooks();
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
