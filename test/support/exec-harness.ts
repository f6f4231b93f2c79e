// Runs `codewhale exec` as a child process against the loopback mock provider, for each
// provider kind, in the temp home of provider-env.ts (re-exported here), with async spawning
// (the mock shares our loop).
// Under the test runner, a child still running when its file's tests end is killed then, so a
// failed test cannot leave its file waiting on a CLI that waits on its stdin.
import { type ChildProcess, spawn } from "node:child_process";
import { after } from "node:test";
import { bundleEntry } from "./bundle-child.ts";
import { cliPath } from "./cli.ts";
import type { ExecEnv } from "./provider-env.ts";

export interface ExecRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export { type ExecEnv, execEnv, fakeKey, KINDS, MODEL_OF } from "./provider-env.ts";

export interface Spawned {
  child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  done: Promise<ExecRun>;
}

/** exec-tools-cli.ts: `codewhale exec` with the test tools, bundled once (bundle-child.ts). */
const toolsCli = () => [bundleEntry(new URL("./exec-tools-cli.ts", import.meta.url))];

const running = new Set<ChildProcess>();
if (process.env.NODE_TEST_CONTEXT !== undefined) {
  after(() => {
    for (const child of running) child.kill("SIGKILL");
  });
}

export function spawnCli(
  args: string[],
  setup: ExecEnv,
  input?: string,
  entry: string[] = [cliPath],
): Spawned {
  const started = Date.now();
  const child = spawn(process.execPath, [...entry, ...args], {
    cwd: setup.workspace,
    env: setup.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  running.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (data) => {
    stdout += String(data);
  });
  child.stderr?.on("data", (data) => {
    stderr += String(data);
  });
  if (input !== undefined) child.stdin?.end(input);
  const done = new Promise<ExecRun>((resolve) => {
    child.on("close", (status, signal) => {
      running.delete(child);
      resolve({ status, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
  return { child, stdout: () => stdout, done };
}

export function runExec(args: string[], setup: ExecEnv, input?: string): Promise<ExecRun> {
  return spawnCli(["exec", ...args], setup, input ?? "").done;
}

/**
 * `codewhale exec` with the test tools (echo, sleep, a recording bash and write) registered;
 * each tool call is logged as one JSON line to `toolLog` when given.
 */
export function runExecWithTools(
  args: string[],
  setup: ExecEnv,
  toolLog?: string,
  input = "",
): Promise<ExecRun> {
  const env = toolLog ? { ...setup.env, CODEWHALE_TEST_TOOL_LOG: toolLog } : setup.env;
  return spawnCli(["exec", ...args], { ...setup, env }, input, toolsCli()).done;
}

export function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Polls until `check` is true, or fails after `timeoutMs` (loose: a loaded machine is slow). */
export async function waitFor(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
