// Long-lived commands (dev servers, watchers) for the bash tool's background mode. Each one is
// started through runCommand, so it gets the same process group, tree kill and shutdown hook;
// its stdout and stderr go in arrival order to a private log (0600, in a 0700 dir) that the
// caller reads incrementally and passes through the output policy. Used by tools/builtin.
import { mkdtempSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OutputPolicy } from "./policy.ts";
import type { RunResult } from "./run-command.ts";
import { runCommand } from "./run-command.ts";
import { onShutdown } from "./shutdown.ts";

/** The wrapper's own output is only a failed redirect; it is kept small and unredacted. */
const WRAPPER_POLICY: OutputPolicy = { maxBytes: 4096, spillToTemp: false, redactSecrets: false };
/** While running, a partial last line is held back until it is this long. */
const MAX_HELD_BYTES = 64 * 1024;

export interface BackgroundSpec {
  /** A shell command, run with `bash -c`. */
  command: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  killGraceMs?: number;
}

export interface BackgroundCommand {
  readonly logPath: string;
  /** The result once it has exited (its `output` is empty: the output is in the log). */
  readonly result: RunResult | null;
  readonly done: Promise<RunResult>;
  /** Bytes written since the last read; while running, whole lines only. */
  readNew(): Promise<Uint8Array>;
  /** Kills the process tree and waits for it to exit. */
  kill(): Promise<RunResult>;
}

export interface BackgroundScope {
  start(spec: BackgroundSpec): BackgroundCommand;
  /** Kills every command still running and removes the logs; idempotent. */
  dispose(): Promise<void>;
}

export function createBackgroundScope(baseDir: string = tmpdir()): BackgroundScope {
  let dir: string | null = null;
  let untrack: (() => void) | null = null;
  let counter = 0;
  const commands: BackgroundCommand[] = [];
  const removeDir = () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
    untrack?.();
    untrack = null;
  };
  return {
    start(spec) {
      if (!dir) {
        // The pid in the name lets a later start-up tell a crashed session's logs from live ones.
        dir = mkdtempSync(join(baseDir, `codewhale-bg-${process.pid}-`));
        untrack = onShutdown(removeDir);
      }
      counter += 1;
      const command = startCommand(spec, join(dir, `bg-${counter}.log`));
      commands.push(command);
      return command;
    },
    async dispose() {
      await Promise.all(commands.map((command) => command.kill()));
      commands.length = 0;
      removeDir();
    },
  };
}

function startCommand(spec: BackgroundSpec, logPath: string): BackgroundCommand {
  const controller = new AbortController();
  // umask 077 creates the log 0600; from then on every fd of the command points at it.
  const script = `umask 077; exec >>"$CODEWHALE_BG_LOG" 2>&1 </dev/null\n${spec.command}`;
  let result: RunResult | null = null;
  const done = runCommand(
    {
      command: script,
      cwd: spec.cwd,
      env: { ...(spec.env ?? process.env), CODEWHALE_BG_LOG: logPath },
      signal: controller.signal,
      killGraceMs: spec.killGraceMs,
    },
    WRAPPER_POLICY,
  ).then((finished) => {
    result = finished;
    return finished;
  });
  let offset = 0;
  let wrapperShown = false;
  return {
    logPath,
    get result() {
      return result;
    },
    done,
    async readNew() {
      const exited = result !== null;
      const bytes = await readFrom(logPath, offset);
      const cut = exited ? bytes.length : wholeLines(bytes);
      offset += cut;
      // Only a failed redirect makes the wrapper itself print; shown once, after the log.
      const wrapper = exited && !wrapperShown ? Buffer.from(result?.output ?? "") : Buffer.alloc(0);
      if (exited) wrapperShown = true;
      return Buffer.concat([bytes.subarray(0, cut), wrapper]);
    },
    async kill() {
      controller.abort();
      return done;
    },
  };
}

/** Everything from `offset` to the current end; empty when the log does not exist yet. */
async function readFrom(path: string, offset: number): Promise<Buffer> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch {
    return Buffer.alloc(0);
  }
  try {
    const { size } = await handle.stat();
    if (size <= offset) return Buffer.alloc(0);
    const buffer = Buffer.alloc(size - offset);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The length up to and including the last newline, or all of it when a line is too long. */
function wholeLines(bytes: Buffer): number {
  const last = bytes.lastIndexOf(0x0a);
  if (last >= 0) return last + 1;
  return bytes.length >= MAX_HELD_BYTES ? bytes.length : 0;
}
