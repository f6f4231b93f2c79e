// When the reader of stdout goes away (`codewhale sessions list | head -1`), output stops and
// the command ends as it would have: no error, no stack trace. Commands that keep working
// (exec) can listen for it. Any other stdout failure is one line on stderr and exit 1.
import { ExitCode } from "../errors.ts";
import { reportError } from "./fail.ts";

const listeners = new Set<() => void>();
let gone = false;

function onStdoutError(error: NodeJS.ErrnoException): void {
  if (error.code !== "EPIPE") {
    reportError(new Error(`cannot write to standard output: ${error.message}`));
    process.exit(ExitCode.failure);
  }
  if (gone) return;
  gone = true;
  for (const listener of listeners) listener();
}

/** Installed once by cli/main.ts, before any command writes. */
export function watchStdout(stdout: NodeJS.WriteStream = process.stdout): void {
  stdout.on("error", onStdoutError);
}

/** Calls `listener` once if the reader of stdout goes away; returns the unsubscribe. */
export function onStdoutReaderGone(listener: () => void): () => void {
  if (gone) listener();
  else listeners.add(listener);
  return () => listeners.delete(listener);
}
