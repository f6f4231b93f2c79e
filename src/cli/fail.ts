// Maps anything a command throws to one line on stderr and a documented exit code. This is
// the only place that decides how an error looks to a user: no stack traces, ever.
import { CodewhaleError, ExitCode, errorMessage } from "../errors.ts";
import { terminalSafe } from "../runner/index.ts";

export function exitCodeFor(error: unknown): number {
  if (CodewhaleError.isInstance(error)) return error.exitCode;
  return ExitCode.failure;
}

export function reportError(
  error: unknown,
  stderr: NodeJS.WritableStream = process.stderr,
): number {
  const line = errorMessage(error).split("\n")[0] ?? "unknown error";
  stderr.write(`codewhale: ${terminalSafe(line)}\n`);
  if (process.env.CODEWHALE_DEBUG && error instanceof Error && error.stack) {
    stderr.write(`${error.stack}\n`);
  }
  return exitCodeFor(error);
}
