// Loop benchmarks, each beside a baseline measured in the same run: (1) 50,000 flood deltas
// through the loop, the log and the stream-json projection (in-process, output to /dev/null)
// vs the Anthropic SDK consuming the same stream bare; (2) start-up: `codewhale --version` and
// process start to the first request byte, each vs bare `node -e 0`. Imported by bench/run.ts.
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Agent } from "../src/agent/agent.ts";
import type { BusEvents } from "../src/agent/bus-events.ts";
import { createBus } from "../src/bus/bus.ts";
import { ExecOutput } from "../src/cli/exec-output.ts";
import { loadConfig } from "../src/config/index.ts";
import { cliPath } from "../test/support/cli.ts";
import {
  flood,
  type MockProvider,
  startMockProvider,
} from "../test/support/mock-provider/index.ts";

const DELTAS = 50_000;
const RUNS = 10;
const KEY = "sk-ant-api03-bench-not-a-real-key";
const MODEL = "claude-mock-1";

export async function benchLoop(): Promise<string[]> {
  const mock = await startMockProvider();
  try {
    const overhead = await benchOverhead(mock);
    const startup = await benchStartup();
    return [...overhead, ...startup];
  } finally {
    await mock.close();
  }
}

async function benchOverhead(mock: MockProvider): Promise<string[]> {
  const bare: number[] = [];
  const loop: number[] = [];
  // One warm-up of each (module loading, JIT), then the measured runs.
  for (let i = 0; i < 4; i++) {
    mock.enqueue(flood(DELTAS));
    bare.push(await bareStream(mock));
    mock.enqueue(flood(DELTAS));
    loop.push(await loopStream(mock));
  }
  bare.shift();
  loop.shift();
  const b = median(bare);
  const l = median(loop);
  return [
    `loop: ${DELTAS} deltas, SDK bare stream ${ms(b)}; loop + log + stream-json (in-process, to /dev/null) ${ms(l)} = ${(l / b).toFixed(2)}x (target <= 1.5x)`,
  ];
}

/** The SDK consuming the flood with nothing else to do. */
async function bareStream(mock: MockProvider): Promise<number> {
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  const client = new Anthropic({ apiKey: KEY, baseURL: mock.url, maxRetries: 0 });
  const started = performance.now();
  const stream = await client.messages.create({
    model: MODEL,
    max_tokens: 1024,
    messages: [{ role: "user", content: "flood" }],
    stream: true,
  });
  let deltas = 0;
  for await (const event of stream) if (event.type === "content_block_delta") deltas++;
  if (deltas < DELTAS) throw new Error(`bare stream saw ${deltas} deltas`);
  return performance.now() - started;
}

/** One turn through the real loop, writer and stream-json output, as `codewhale exec` runs it. */
async function loopStream(mock: MockProvider): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), "cw-bench-"));
  const env = { CODEWHALE_HOME: home, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: mock.url };
  const loaded = loadConfig({ cwd: home, env, flags: { model: `anthropic/${MODEL}` } });
  const bus = createBus<BusEvents>();
  const devNull = createWriteStream("/dev/null");
  const output = new ExecOutput("stream-json", devNull, process.stderr, false);
  bus.on("session/event", output.observe);
  const started = performance.now();
  const agent = await Agent.open({
    bus,
    loaded,
    env,
    cwd: home,
    sessionsDir: join(home, "sessions"),
  });
  const outcome = await agent.run("flood");
  await output.finish({
    sessionId: agent.sessionId,
    reason: outcome.reason,
    exitCode: 0,
    durationMs: 0,
  });
  const elapsed = performance.now() - started;
  agent.dispose();
  devNull.end();
  if (outcome.reason !== "completed")
    throw new Error(`loop run ended ${outcome.reason}: ${outcome.error}`);
  return elapsed;
}

async function benchStartup(): Promise<string[]> {
  const node: number[] = [];
  const version: number[] = [];
  const firstByte: number[] = [];
  const server = await firstByteServer();
  try {
    for (let i = 0; i < RUNS; i++) {
      node.push(await timeExit(["-e", "0"]));
      version.push(await timeExit([cliPath, "--version"]));
      firstByte.push(await timeFirstByte(server));
    }
  } finally {
    server.close();
  }
  const n = median(node);
  const v = median(version);
  const f = median(firstByte);
  return [
    `startup: node -e 0 ${ms(n)}; codewhale --version ${ms(v)} = ${(v / n).toFixed(2)}x (target <= 1.5x)`,
    `startup: exec to first request byte ${ms(f)} = node + ${ms(f - n)} (target <= node + 150 ms)`,
  ];
}

/** Time from spawn to exit of `node <args>`. */
function timeExit(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: "ignore" });
  return new Promise((resolve) => child.on("exit", () => resolve(performance.now() - started)));
}

interface FirstByteServer {
  port: number;
  /** Resolves with the time the next connection sends its first byte. */
  next(): Promise<number>;
  close(): void;
}

async function firstByteServer(): Promise<FirstByteServer> {
  let waiting: ((at: number) => void) | null = null;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once("data", () => {
      waiting?.(performance.now());
      waiting = null;
      socket.destroy();
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    next: () => new Promise((resolve) => (waiting = resolve)),
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

async function timeFirstByte(server: FirstByteServer): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), "cw-bench-start-"));
  const env = {
    PATH: process.env.PATH ?? "",
    CODEWHALE_HOME: home,
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${server.port}`,
  };
  const arrived = server.next();
  const started = performance.now();
  const args = [cliPath, "exec", "--model", `anthropic/${MODEL}`, "hi"];
  const child = spawn(process.execPath, args, { cwd: home, env, stdio: "ignore" });
  const at = await arrived;
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  return at - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchLoop()) process.stdout.write(`${line}\n`);
}
