// Long-lived commands (dev servers, watchers) for the bash tool's background mode. Each one is
// started through runCommand, so it gets the same process group, tree kill, lifeline and
// shutdown hook; its output goes through the output pipeline (stripped, redacted) into a log in
// a spill scope (0600 in a 0700 dir, removed at exit, swept after a crash), so no raw byte is
// ever written to disk. Callers read the log incrementally with a bounded read (log-window.ts).
import type { ByteString } from "./byte-text.ts";
import type { LogWindow } from "./log-window.ts";
import { readLogWindow } from "./log-window.ts";
import type { OutputPolicy } from "./policy.ts";
import type { CommandSpec, RunResult } from "./run-command.ts";
import { runCommand } from "./run-command.ts";
import type { SpillFile, SpillScope } from "./spill.ts";
import { createSpillScope } from "./spill.ts";

export interface BackgroundSpec {
  /** A shell command, run with `bash -c`. */
  command: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** The policy its output is logged under (redaction); reads are bounded by its `maxBytes`. */
  policy: OutputPolicy;
  killGraceMs?: number;
  /** Run inside the OS sandbox under this policy (run-command.ts); absent: unconfined. */
  sandbox?: CommandSpec["sandbox"];
}

export interface BackgroundCommand {
  readonly logPath: string;
  /** The result once it has exited (its `output` is empty: the output is in the log). */
  readonly result: RunResult | null;
  readonly done: Promise<RunResult>;
  /** What was logged since the last read, bounded by `maxBytes`; while running, whole lines. */
  readNew(maxBytes: number): Promise<LogWindow>;
  /** Kills the process tree and waits for it to exit. */
  kill(): Promise<RunResult>;
}

export interface BackgroundScope {
  start(spec: BackgroundSpec): Promise<BackgroundCommand>;
  /** Kills every command still running and removes the logs; idempotent. */
  dispose(): Promise<void>;
}

/**
 * Logs go in `spill` (the session's, so `read` can page through them) or, without one, in a
 * spill scope of their own; either way the directory carries codewhale's pid for the sweep.
 */
export function createBackgroundScope(spill: SpillScope | null = null): BackgroundScope {
  let own: SpillScope | null = null;
  const scope = () => {
    if (spill) return spill;
    own ??= createSpillScope(`background-${Date.now().toString(36)}`);
    return own;
  };
  const commands: Array<{ command: BackgroundCommand; file: SpillFile }> = [];
  return {
    async start(spec) {
      const file = await scope().createFile("background");
      const command = startCommand(spec, file);
      commands.push({ command, file });
      return command;
    },
    async dispose() {
      const all = commands.splice(0);
      await Promise.all(all.map(({ command }) => command.kill()));
      await Promise.all(all.map(({ file }) => file.discard()));
      own?.dispose();
      own = null;
    },
  };
}

/** The wrapper's own result is not kept: the output is in the log. */
const RESULT_BYTES = 1;

function startCommand(spec: BackgroundSpec, file: SpillFile): BackgroundCommand {
  const controller = new AbortController();
  let written = 0;
  // Sequential appends: `written` only counts bytes on disk, so a read never sees a gap.
  const sink = async (text: ByteString) => {
    await file.write(Buffer.from(text, "latin1"));
    written += text.length;
  };
  let result: RunResult | null = null;
  const done = runCommand(
    {
      command: spec.command,
      cwd: spec.cwd,
      ...(spec.env ? { env: spec.env } : {}),
      signal: controller.signal,
      ...(spec.killGraceMs === undefined ? {} : { killGraceMs: spec.killGraceMs }),
      ...(spec.sandbox ? { sandbox: spec.sandbox } : {}),
    },
    { ...spec.policy, maxBytes: RESULT_BYTES, spillToTemp: false },
    { sink },
  ).then(async (finished) => {
    await file.close().catch(() => {});
    result = finished;
    return finished;
  });
  let offset = 0;
  return {
    logPath: file.path,
    get result() {
      return result;
    },
    done,
    async readNew(maxBytes) {
      const window = await readLogWindow(file.path, {
        start: offset,
        end: written,
        maxBytes,
        wholeLines: result === null,
      });
      offset = window.end;
      return window;
    },
    async kill() {
      controller.abort();
      return done;
    },
  };
}
