// When the reader of stdout goes away (`codewhale sessions list | head -1`, or a terminal that
// hangs up), output stops and the command ends as it would have: no error, no stack trace.
// Commands that keep working (exec) can listen for it. Any other stdout failure is one line.
import { ExitCode } from "../errors.ts";
import { reportError } from "./fail.ts";

const listeners = new Set<() => void>();
let gone = false;

/** The reader is gone: a closed pipe, or a terminal that hung up. */
const GONE_CODES = new Set(["EPIPE", "EIO"]);

function onStdoutError(error: NodeJS.ErrnoException): void {
  if (!GONE_CODES.has(error.code ?? "")) {
    reportError(new Error(`cannot write to standard output: ${error.message}`));
    process.exit(ExitCode.failure);
  }
  if (gone) return;
  gone = true;
  for (const listener of listeners) listener();
}

/**
 * Installed once by cli/main.ts, before any command writes. A failing stderr has nobody left
 * to tell, so its errors are dropped rather than crashing the process.
 */
export function watchStdout(
  stdout: NodeJS.WriteStream = process.stdout,
  stderr: NodeJS.WriteStream = process.stderr,
): void {
  stdout.on("error", onStdoutError);
  stderr.on("error", () => undefined);
}

/** Calls `listener` once if the reader of stdout goes away; returns the unsubscribe. */
export function onStdoutReaderGone(listener: () => void): () => void {
  if (gone) listener();
  else listeners.add(listener);
  return () => listeners.delete(listener);
}
