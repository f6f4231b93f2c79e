// bash in a surface's own terminal (an ACP editor's terminal/*, so the user watches the command
// live): creates it, waits for the exit, the timeout or the cancel (which kill it), reads the
// final output, always releases it, and puts that output through bash's output policy, so the
// model gets the same bounded, stripped, redacted result as from the local runner. The host
// (TerminalHost) is the surface's; bash.ts calls runInTerminal when the context has one.
import { errorMessage } from "../../errors.ts";
import { applyOutputPolicy, terminalSafeLine } from "../../runner/index.ts";
import type { ToolContext, ToolResult } from "../types.ts";
import type { BuiltinToolContext } from "./context.ts";
import { toToolResult } from "./policed.ts";
import { guarded, ToolProblem } from "./problem.ts";

/** What a terminal is created with: the command line, its workspace and its whole environment. */
export interface TerminalRequest {
  command: string;
  args: string[];
  cwd: string;
  /** The complete environment of the command (never codewhale's provider keys). */
  env: NodeJS.ProcessEnv;
  /** The most output the host keeps (it drops the oldest beyond it). */
  outputByteLimit: number;
  /** The tool call the terminal belongs to (a surface shows it in that call). */
  callId: string;
}

export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}

/** One terminal of the host. */
export interface TerminalHandle {
  waitForExit(): Promise<TerminalExit>;
  output(): Promise<{ output: string; truncated: boolean }>;
  kill(): Promise<void>;
  release(): Promise<void>;
}

export interface TerminalHost {
  create(request: TerminalRequest): Promise<TerminalHandle>;
}

/** The most output a terminal keeps for the result; the policy bounds it again. */
export const TERMINAL_OUTPUT_LIMIT = 1024 * 1024;
/** How long a killed command may take to end before the result is given without its exit. */
export const KILL_WAIT_MS = 5000;

export interface TerminalRun {
  /** The argv the terminal runs: `bash -c <command>`, under bwrap when the session is sandboxed. */
  argv: readonly string[];
  timeoutMs: number;
}

/** How the command ended, as bash's status line reads it, and its policed output. */
export interface TerminalOutcome extends TerminalExit {
  timedOut: boolean;
  cancelled: boolean;
  originalBytes: number;
  /** What the model reads of the output (the sandbox's refusal is found in it). */
  output: string;
}

/**
 * Runs one foreground bash command in the host's terminal and returns the policed result; a
 * host that fails (the editor went away) gives an error result naming what failed.
 */
export function runInTerminal(
  context: BuiltinToolContext,
  host: TerminalHost,
  run: TerminalRun,
  ctx: ToolContext,
  statusLine: (outcome: TerminalOutcome) => string,
): Promise<ToolResult> {
  return guarded(async () => {
    const terminal = await hostStep("start the command", () =>
      host.create({
        command: run.argv[0] ?? "bash",
        args: run.argv.slice(1),
        cwd: context.cwd,
        env: context.env,
        outputByteLimit: TERMINAL_OUTPUT_LIMIT,
        callId: ctx.callId,
      }),
    );
    try {
      const ended = await hostStep("wait for the command", () =>
        exitOrStop(terminal, run.timeoutMs, ctx.signal),
      );
      const exit = ended.stop === undefined ? ended.exit : await killed(terminal);
      const { output, truncated } = await hostStep("read the output", () => terminal.output());
      const policed = await applyOutputPolicy(output, context.policy("bash"), {
        spill: context.spill,
      });
      const outcome: TerminalOutcome = {
        ...exit,
        timedOut: ended.stop === "timeout",
        cancelled: ended.stop === "cancel",
        originalBytes: policed.originalBytes,
        output: policed.output,
      };
      const note = truncated ? "[the terminal kept only the last 1 MiB of output]\n" : "";
      const failed = outcome.timedOut || outcome.cancelled || exit.exitCode !== 0;
      return toToolResult(policed, { trailer: `${note}${statusLine(outcome)}`, isError: failed });
    } finally {
      await terminal.release().catch(() => undefined);
    }
  });
}

/** One request to the host; its failure is the call's error, in one line. */
async function hostStep<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const line = terminalSafeLine(errorMessage(error).split("\n")[0] ?? "unknown error");
    throw new ToolProblem(`The editor's terminal could not ${what}: ${line}`);
  }
}

type Ended = { exit: TerminalExit; stop?: undefined } | { stop: "timeout" | "cancel" };

/** The exit, or the timeout or cancel that came first. */
function exitOrStop(terminal: TerminalHandle, timeoutMs: number, signal: AbortSignal) {
  return new Promise<Ended>((resolve, reject) => {
    if (signal.aborted) {
      resolve({ stop: "cancel" });
      return;
    }
    const timer = setTimeout(() => done({ stop: "timeout" }), timeoutMs);
    const onAbort = () => done({ stop: "cancel" });
    signal.addEventListener("abort", onAbort, { once: true });
    function done(ended: Ended) {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(ended);
    }
    terminal.waitForExit().then((exit) => done({ exit }), reject);
  });
}

/** Kills the command and waits (a bounded time) for it to end. */
async function killed(terminal: TerminalHandle): Promise<TerminalExit> {
  const unknown: TerminalExit = { exitCode: null, signal: "SIGKILL" };
  await hostStep("kill the command", () => terminal.kill());
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<TerminalExit>((resolve) => {
    timer = setTimeout(() => resolve(unknown), KILL_WAIT_MS);
  });
  try {
    return await Promise.race([terminal.waitForExit().catch(() => unknown), late]);
  } finally {
    clearTimeout(timer);
  }
}
