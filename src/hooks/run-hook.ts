// Runs one hook command: `bash -c` in its own process group, JSON on stdin, stdout and stderr
// kept apart and each capped at 1 MiB of raw bytes. The shared runner (runner/run-command.ts)
// is not used: it merges the two streams, ignores stdin and applies the tool-output policy
// (redaction, head/tail truncation), while the hook protocol needs stdin, separate streams and
// stdout byte-exact so its JSON parses. The tree kill and the lifeline that ends the hook when
// codewhale dies (runner/process-tree.ts, runner/lifeline.ts) are the runner's. In the OS sandbox
// (`sandbox`), it runs under bwrap, and what it leaves running dies with it.
import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import { errorMessage } from "../errors.ts";
import type { BwrapHostOptions, SandboxPolicy } from "../runner/index.ts";
import { confinedArgv, groupRuns, guardProcessTree, spawnTethered } from "../runner/index.ts";

/** Cap on each of stdin, stdout and stderr, in bytes. */
export const HOOK_IO_CAP = 1024 * 1024;
export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;
/** After the hook exits, how long background holders of its pipes may keep them open. */
const DRAIN_AFTER_EXIT_MS = 300;

export interface HookRunSpec {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** What the hook reads on stdin (already capped by the caller). */
  input: string;
  timeoutMs?: number;
  /** Between SIGTERM and SIGKILL; default 1000 ms. */
  killGraceMs?: number;
  signal?: AbortSignal;
  /**
   * The OS sandbox the hook runs in (`run`), or why it must not start (`refusal`: no sandbox
   * here and the fallback refuses); neither: unconfined.
   */
  sandbox?: HookSandbox;
}

export interface HookSandbox {
  run?: { policy: SandboxPolicy; host: BwrapHostOptions };
  refusal?: string;
}

export interface HookRunResult {
  /** The exit code, or null when the hook died by a signal or never started. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  timedOut: boolean;
  cancelled: boolean;
  /** Why the hook could not be started, when it could not. */
  spawnError?: string;
  durationMs: number;
}

export async function runHookCommand(spec: HookRunSpec): Promise<HookRunResult> {
  const started = Date.now();
  if (spec.sandbox?.refusal) return notStarted(`not run: ${spec.sandbox.refusal}`, started);
  // --norc: Node's stdio pipes are sockets, and a Debian-built bash that sees a socket on
  // stdin reads ~/.bashrc (as if run by rshd), whose output would pollute the hook's answer.
  const command = ["bash", "--norc", "-c", spec.command];
  const run = spec.sandbox?.run;
  const tethered = spawnTethered({
    argv: run ? confinedArgv(run, command, spec.cwd) : command,
    cwd: spec.cwd,
    env: spec.env,
    stdin: "pipe",
    mergeStderr: false,
  });
  const { child } = tethered;
  const stdout = capture(tethered.stdout);
  const stderr = capture(tethered.stderr);
  tethered.stdin?.on("error", () => {
    // EPIPE: the hook exited or closed stdin without reading it all; that is its right.
  });
  tethered.stdin?.end(spec.input);
  const guard = guardProcessTree(child.pid, {
    graceMs: spec.killGraceMs ?? 1000,
    timeoutMs: spec.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
    ...(spec.signal ? { signal: spec.signal } : {}),
  });
  try {
    const exit = await waitForExit(child);
    await Promise.race([
      Promise.all([stdout.closed, stderr.closed]),
      new Promise((resolve) => setTimeout(resolve, DRAIN_AFTER_EXIT_MS)),
    ]);
    tethered.stdout.destroy();
    tethered.stderr.destroy();
    // What the hook left running (a daemon) lives as long as the session, and no longer.
    if (child.pid !== undefined && groupRuns(child.pid, await tethered.watcherPid(), started)) {
      tethered.keep();
    } else await tethered.release();
    const out = stdout.text();
    return {
      ...exit,
      ...guard.flags,
      stdout: out.text,
      stdoutTruncated: out.truncated,
      stderr: stderr.text().text,
      durationMs: Date.now() - started,
    };
  } finally {
    await tethered.release();
    guard.dispose();
  }
}

function notStarted(spawnError: string, started: number): HookRunResult {
  const none = { stdout: "", stderr: "", stdoutTruncated: false, timedOut: false };
  return {
    exitCode: null,
    signal: null,
    ...none,
    cancelled: false,
    spawnError,
    durationMs: Date.now() - started,
  };
}

interface Exit {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  spawnError?: string;
}

function waitForExit(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve) => {
    child.once("error", (error) =>
      resolve({ exitCode: null, signal: null, spawnError: errorMessage(error) }),
    );
    child.once("exit", (exitCode, signal) => resolve({ exitCode, signal }));
  });
}

interface Captured {
  closed: Promise<void>;
  text(): { text: string; truncated: boolean };
}

/** Keeps the first HOOK_IO_CAP bytes of a stream and keeps draining the rest. */
function capture(stream: Readable): Captured {
  const chunks: Buffer[] = [];
  let kept = 0;
  let truncated = false;
  stream.on("data", (chunk: Buffer) => {
    const room = HOOK_IO_CAP - kept;
    if (chunk.length > room) truncated = true;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    chunks.push(part);
    kept += part.length;
  });
  const closed = new Promise<void>((resolve) => {
    stream.once("close", () => resolve());
    stream.once("error", () => resolve());
  });
  return { closed, text: () => ({ text: Buffer.concat(chunks).toString("utf8"), truncated }) };
}
