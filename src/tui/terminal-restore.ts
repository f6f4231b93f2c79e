// Puts the terminal back however the interactive session ends: on a normal exit, on SIGTERM,
// SIGHUP or SIGINT sent by another process, and on a crash (an uncaught exception or
// rejection), the screen is stopped first (cursor shown, raw mode, bracketed paste and the
// keyboard protocols off), then the session is closed. Installed by index.ts around a session.
import { ExitCode } from "../errors.ts";

export interface RestoreHooks {
  /** Stops the screen; called at most once. */
  stopScreen(): void;
  /** Closes the session at once (the log stays valid); may throw. */
  abandon(): void;
  /** Writes one line on the restored terminal. */
  write(line: string): void;
  exit(code: number): void;
}

const SIGNALS = ["SIGTERM", "SIGHUP", "SIGINT"] as const;

/** Returns `restore` (idempotent) and a disposer that removes the handlers. */
export function guardTerminal(hooks: RestoreHooks): { restore: () => void; dispose: () => void } {
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      hooks.stopScreen();
    } catch {
      // The terminal is gone (SIGHUP): nothing left to put back.
    }
  };
  const leave = (code: number, line?: string) => {
    restore();
    try {
      hooks.abandon();
    } catch {
      // Exiting anyway; the log is valid up to its last complete line.
    }
    if (line) hooks.write(line);
    hooks.exit(code);
  };
  const onSignal = () => leave(ExitCode.cancelled, "codewhale: stopped by a signal");
  const onCrash = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    leave(ExitCode.failure, `codewhale: internal error in the terminal UI: ${message}`);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);
  process.on("exit", restore);
  return {
    restore,
    dispose: () => {
      for (const signal of SIGNALS) process.off(signal, onSignal);
      process.off("uncaughtException", onCrash);
      process.off("unhandledRejection", onCrash);
      process.off("exit", restore);
    },
  };
}
