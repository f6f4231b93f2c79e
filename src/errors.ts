// The typed errors that cross layer boundaries. Each carries what a user needs (file, line,
// field, request id) and an exit code; the CLI maps them to one line in one place (cli/fail.ts).
// Bare `Error` is reserved for programmer errors.

const marker = Symbol.for("codewhale.error");

/** Documented exit codes of the `codewhale` command. */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  /** exec: the turn completed without an answer (a refusal, a content filter, nothing said). */
  noAnswer: 3,
  /** rewind: files changed outside codewhale since the checkpoint (pass --force to overwrite). */
  conflict: 4,
  cancelled: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export abstract class CodewhaleError extends Error {
  readonly [marker] = true;
  abstract readonly exitCode: ExitCode;

  /** True for any codewhale error, even across duplicate copies of this module. */
  static isInstance(value: unknown): value is CodewhaleError {
    return typeof value === "object" && value !== null && marker in value;
  }
}

/** A config file or flag is malformed: names the file, line and key. */
export class ConfigError extends CodewhaleError {
  readonly exitCode = ExitCode.usage;
  override readonly name = "ConfigError";
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
    readonly key?: string,
  ) {
    super(message);
  }
}

/**
 * A config edit refused for what the file holds, not for how it is written: `mcp add` of a
 * name that exists (without --force), `mcp remove` of one that does not.
 */
export class ConfigEditError extends CodewhaleError {
  readonly exitCode = ExitCode.failure;
  override readonly name = "ConfigEditError";
}

/** Signing in to (or out of) a remote MCP server failed: the one line says why. */
export class McpAuthError extends CodewhaleError {
  readonly exitCode = ExitCode.failure;
  override readonly name = "McpAuthError";
}

/** The command line was used wrongly (unknown session id, bad option value). */
export class UsageError extends CodewhaleError {
  readonly exitCode = ExitCode.usage;
  override readonly name = "UsageError";
}

/** The session search index cannot be opened or written (docs/search.md). */
export class SearchIndexError extends CodewhaleError {
  readonly exitCode = ExitCode.failure;
  override readonly name = "SearchIndexError";
}

/** A session log is damaged somewhere other than a torn last line. */
export class SessionCorruptError extends CodewhaleError {
  readonly exitCode = ExitCode.failure;
  override readonly name = "SessionCorruptError";
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}

/**
 * The session signing key (or the directory holding it) cannot be trusted or read: another
 * user could read or replace it, it is a symlink, or it is not a key. Names the file and the fix.
 */
export class SigningKeyError extends CodewhaleError {
  readonly exitCode = ExitCode.usage;
  override readonly name = "SigningKeyError";
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

/**
 * The session log could not be written (a full disk, a removed directory). The log stays
 * valid up to its last complete line; the writer refuses every later append.
 */
export class SessionWriteError extends CodewhaleError {
  readonly exitCode = ExitCode.failure;
  override readonly name = "SessionWriteError";
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`cannot write the session log ${file}: ${errorMessage(cause)}`, { cause });
  }
}

/**
 * Another live process holds the session's writer lock, or the lock file names no owner (pid
 * -1: then the message names the lock file, which only a user may remove).
 */
export class SessionLockedError extends CodewhaleError {
  readonly exitCode = ExitCode.failure;
  override readonly name = "SessionLockedError";
  constructor(
    readonly sessionId: string,
    readonly pid: number,
    readonly host: string,
    readonly lockFile?: string,
  ) {
    super(
      pid > 0
        ? `session ${sessionId} is open in process ${pid} on ${host}`
        : `session ${sessionId} is locked by ${lockFile ?? "its lock file"}, which names no owner codewhale can check; remove it if no codewhale process has the session open`,
    );
  }
}

/**
 * A run that ended without completing its turn: a provider error, a limit (`max_steps`,
 * `max_budget_usd`, the context window), or cancellation. The message is the one line to show.
 */
export class RunStoppedError extends CodewhaleError {
  override readonly name = "RunStoppedError";
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}

/**
 * `export verify` found that an export does not match its source: the source changed, the
 * file was edited, or the receipt's signature is wrong. The message names which.
 */
export class ExportMismatchError extends CodewhaleError {
  readonly exitCode = ExitCode.failure;
  override readonly name = "ExportMismatchError";
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

/**
 * A prompt larger than the model's whole context window: refused before it is recorded or
 * sent (it could never fit, compacted or not). Exit code 2, as for any bad input.
 */
export class PromptTooLargeError extends CodewhaleError {
  readonly exitCode = ExitCode.usage;
  override readonly name = "PromptTooLargeError";
}

/** Reads the message of anything thrown, without assuming it is an Error. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** A command must run in the OS sandbox, which cannot run here, and the fallback is to refuse. */
export class SandboxUnavailableError extends CodewhaleError {
  readonly exitCode = ExitCode.failure;
  override readonly name = "SandboxUnavailableError";
}

/** The checkpoint store cannot capture or restore the workspace (git missing, a store damaged). */
export class CheckpointError extends CodewhaleError {
  readonly exitCode = ExitCode.failure;
  override readonly name = "CheckpointError";
}

/**
 * A rewind would overwrite files changed outside codewhale since the last checkpoint: nothing
 * was restored. The message names the files; `--force` overwrites them.
 */
/**
 * A file a rewind would overwrite: its text now and the text the rewind would write (null:
 * absent, or not shown because it is binary or large; `note` says which).
 */
export interface ConflictChange {
  path: string;
  now: string | null;
  restored: string | null;
  note?: string;
}

export class RewindConflictError extends CodewhaleError {
  readonly exitCode = ExitCode.conflict;
  override readonly name = "RewindConflictError";
  constructor(
    readonly files: readonly string[],
    /** Each file as it is now and as the rewind would write it, for a surface that asks. */
    readonly changes: readonly ConflictChange[] = [],
  ) {
    const shown = files.slice(0, 5).join(", ");
    const more = files.length > 5 ? ` and ${files.length - 5} more` : "";
    super(
      `rewind refused: ${files.length === 1 ? "a file" : `${files.length} files`} changed outside codewhale since the last checkpoint: ${shown}${more}; pass --force to overwrite`,
    );
  }
}
