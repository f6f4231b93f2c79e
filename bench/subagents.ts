// Benchmark of subagents (issue 32), in-process on a scripted stream: how long a `task` call
// takes from its recorded `tool/call` to the child's first request, beside a new top-level
// session's open-to-first-request in the same run; and the heap four children waiting on their
// first request hold, beside one child's.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Agent } from "../src/agent/index.ts";
import { loadConfig } from "../src/config/index.ts";
import type { ProviderRequest, StreamFunction, StreamPart } from "../src/providers/index.ts";

const RUNS = process.env.BENCH_QUICK === "1" ? 3 : 9;
const ZERO = { input: 10, output: 1, cache_read: 0, cache_write: 0, reasoning: 0 };

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** A reply: text, or `task` calls; `hold` waits for the request's abort before answering. */
type Reply = { text?: string; tasks?: string[]; hold?: boolean };

function streamOf(route: (prompt: string, request: ProviderRequest) => Reply): StreamFunction {
  return (_config, request) => play(route(firstPrompt(request), request), request);
}

function firstPrompt(request: ProviderRequest): string {
  const first = request.messages[0];
  return first?.role === "user" ? first.text : "";
}

async function* play(reply: Reply, request: ProviderRequest): AsyncGenerator<StreamPart> {
  yield { type: "start", requestId: "req_bench" };
  if (reply.hold) {
    await new Promise<void>((resolve) =>
      request.signal.addEventListener("abort", () => resolve(), { once: true }),
    );
    const error = {
      message: "cancelled",
      status: null,
      requestId: null,
      retryable: false,
      partial: false,
    };
    yield { type: "error", error };
    return;
  }
  const calls = (reply.tasks ?? []).map((prompt, index) => ({
    type: "tool_use",
    id: `t${index}`,
    name: "task",
    input: { description: `job ${index}`, prompt },
  }));
  const content = reply.text ? [{ type: "text", text: reply.text }, ...calls] : calls;
  yield {
    type: "message",
    api: "anthropic",
    content,
    stopReason: calls.length > 0 ? "tool_use" : "end_turn",
    requestId: "req_bench",
    toolCalls: calls.map((call) => ({
      id: call.id,
      name: call.name,
      arguments: JSON.stringify(call.input),
    })),
    usage: ZERO,
  };
}

function options(stream: StreamFunction) {
  const home = mkdtempSync(join(tmpdir(), "cw-bench-sub-"));
  const env = { CODEWHALE_HOME: home, ANTHROPIC_API_KEY: "sk-ant-api03-bench" };
  const cwd = mkdtempSync(join(tmpdir(), "cw-bench-ws-"));
  const loaded = loadConfig({ cwd, env });
  return {
    cwd,
    env,
    loaded,
    stream,
    sessionsDir: join(home, "sessions"),
    guard: { mode: "bypass" as const },
  };
}

/** ms from the parent's `tool/call` of `task` to the child's first request. */
async function taskStart(): Promise<number> {
  let firstRequest = 0;
  const stream = streamOf((prompt, request) => {
    if (prompt === "go")
      return request.messages.length === 1 ? { tasks: ["child"] } : { text: "ok" };
    if (prompt === "child") firstRequest ||= performance.now();
    return { text: "done" };
  });
  let called = 0;
  const agent = await Agent.open(options(stream));
  agent.bus.on("session/event", (event) => {
    if (event.type === "tool/call" && event.name === "task") called = performance.now();
  });
  await agent.submit("go");
  await agent.close();
  return firstRequest - called;
}

/** ms from `Agent.open` of a new session to its first request (what a child also pays). */
async function sessionStart(): Promise<number> {
  let firstRequest = 0;
  const stream = streamOf(() => {
    firstRequest ||= performance.now();
    return { text: "done" };
  });
  const started = performance.now();
  const agent = await Agent.open(options(stream));
  await agent.submit("go");
  await agent.close();
  return firstRequest - started;
}

/** Heap bytes held while `children` children wait on their first request. */
async function heldBy(children: number): Promise<number> {
  let waiting = 0;
  let allWaiting = () => {};
  const ready = new Promise<void>((resolve) => {
    allWaiting = resolve;
  });
  const stream = streamOf((prompt, request) => {
    if (prompt === "go" && request.messages.length > 1) return { text: "ok" };
    if (prompt === "go") return { tasks: Array.from({ length: children }, (_, i) => `child ${i}`) };
    if (++waiting === children) allWaiting();
    return { hold: true };
  });
  const agent = await Agent.open(options(stream));
  gc();
  const before = process.memoryUsage().heapUsed;
  const turn = agent.submit("go");
  await ready;
  gc();
  const held = process.memoryUsage().heapUsed - before;
  agent.cancel();
  await turn;
  await agent.close();
  return held;
}

export async function benchSubagents(): Promise<string[]> {
  await taskStart();
  await sessionStart();
  const task: number[] = [];
  const session: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    task.push(await taskStart());
    session.push(await sessionStart());
  }
  const one = median([await heldBy(1), await heldBy(1), await heldBy(1)]);
  const four = median([await heldBy(4), await heldBy(4), await heldBy(4)]);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  return [
    `task call to the child's first request: ${median(task).toFixed(1)} ms (median of ${RUNS})`,
    `  baseline, a new session's open to its first request: ${median(session).toFixed(1)} ms`,
    `  overhead of a subagent beyond a session's own start: ${(median(task) - median(session)).toFixed(1)} ms`,
    `heap held by 1 child waiting on its first request: ${kib(one)}`,
    `heap held by 4 children waiting: ${kib(four)} (${(four / Math.max(1, one)).toFixed(2)}× one child)`,
  ];
}
