// `codewhale acp` latency: time from sending `session/prompt` to the first
// `agent_message_chunk`, beside the same prompt through a long-lived `codewhale exec
// --input-format stream-json --output-format stream-json` (from the `user` line to the first
// `message_delta`), in the same run, against the loopback mock provider with a prepared stream.
// Both processes are started once and warmed up by one prompt; the median of BENCH_ACP_RUNS
// (default 15) prompts each, alternating. Imported by bench/run.ts.
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import * as acp from "@agentclientprotocol/sdk";
import { spawnAcp } from "../test/support/acp-client.ts";
import { cliPath } from "../test/support/cli.ts";
import { execEnv } from "../test/support/exec-harness.ts";
import { prepareStream, startMockProvider } from "../test/support/mock-provider/index.ts";

const RUNS = Math.max(1, Number(process.env.BENCH_ACP_RUNS ?? 15));
const MODEL = "anthropic/claude-mock-1";
const SCRIPT = { blocks: [{ kind: "text" as const, text: "The first words of the answer." }] };

export async function benchAcp(): Promise<string[]> {
  const mock = await startMockProvider();
  const setup = execEnv(mock);
  const prepared = () => mock.enqueue(prepareStream("anthropic", SCRIPT, "claude-mock-1"));
  const client = spawnAcp(setup, ["--model", MODEL]);
  const exec = startExec(setup.env, setup.workspace);
  try {
    await client.initialize();
    const sessionId = await client.newSession(setup.workspace);
    const acpRun = async (): Promise<number> => {
      prepared();
      const before = client.updates(sessionId).length;
      const started = performance.now();
      const prompt = client.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "go" }],
      });
      const first = await until(() =>
        client
          .updates(sessionId)
          .slice(before)
          .some((update) => update.sessionUpdate === "agent_message_chunk"),
      );
      await prompt;
      return first - started;
    };
    const execRun = async (): Promise<number> => {
      prepared();
      const before = exec.lines().length;
      const started = performance.now();
      exec.child.stdin?.write(`${JSON.stringify({ type: "user", text: "go" })}\n`);
      const first = await until(() =>
        exec
          .lines()
          .slice(before)
          .some((line) => line.includes('"type":"message_delta"')),
      );
      await until(() =>
        exec
          .lines()
          .slice(before)
          .some((line) => line.includes('"type":"result"')),
      );
      return first - started;
    };
    await acpRun();
    await execRun();
    const acpTimes: number[] = [];
    const execTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      acpTimes.push(await acpRun());
      execTimes.push(await execRun());
    }
    const a = median(acpTimes);
    const e = median(execTimes);
    return [
      `acp: session/prompt → first agent_message_chunk ${a.toFixed(1)} ms, beside exec stream-json user line → first message_delta ${e.toFixed(1)} ms (${(a - e).toFixed(1)} ms apart; target within 10 ms)`,
      `  median of ${RUNS} each, alternating; acp ${spread(acpTimes)} ms, exec ${spread(execTimes)} ms`,
    ];
  } finally {
    exec.child.stdin?.end();
    await Promise.all([client.close(), new Promise((resolve) => exec.child.on("close", resolve))]);
    await mock.close();
    for (const dir of [setup.home, setup.workspace]) rmSync(dir, { recursive: true, force: true });
  }
}

function startExec(
  env: Record<string, string>,
  cwd: string,
): { child: ChildProcess; lines(): string[] } {
  const args = [
    "exec",
    "--model",
    MODEL,
    "--input-format",
    "stream-json",
    "--output-format",
    "stream-json",
  ];
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout?.on("data", (data) => {
    stdout += String(data);
  });
  return { child, lines: () => stdout.split("\n").filter(Boolean) };
}

/** Resolves with the time at which `check` first held (polled on every turn of the loop). */
async function until(check: () => boolean, timeoutMs = 10_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setImmediate(resolve));
  }
  return performance.now();
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[sorted.length >> 1]!;
}

function spread(values: number[]): string {
  return `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
}
