// Child of the loop benchmark, bundled by bench/loop.ts: 50,000 flood deltas from the loopback
// mock, consumed (1) by the bare Anthropic SDK and (2) by the real loop, log and stream-json
// output to /dev/null. One warm-up each, then the median of seven; prints { bare, loop } in ms
// and the number of chunk events the last loop run logged for its deltas.
// The mock runs in this process, or, with MOCK_URL, is another process started with `--serve`;
// either way each flood is rendered before its request, so the timings hold only the client.
// With TEXT_RESULT=<file> (run under a pseudo-terminal by bench/exec-text.ts) it times instead
// the loop with exec's text output streaming to that terminal against the stream-json loop and
// the loop with no output at all, alternating, and writes their wall and CPU times there
// (stdout is the terminal).
import { createWriteStream, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Agent } from "../src/agent/agent.ts";
import type { BusEvents } from "../src/agent/bus-events.ts";
import { createBus } from "../src/bus/bus.ts";
import { ExecOutput, type OutputFormat } from "../src/cli/exec-output.ts";
import { loadConfig } from "../src/config/index.ts";
import { providerFetch } from "../src/providers/http-client.ts";
import {
  flood,
  type MockProvider,
  prepareStream,
  startMockProvider,
} from "../test/support/mock-provider/index.ts";

const DELTAS = 50_000;
const RUNS = 7;
const KEY = `sk-ant-api03-${"x".repeat(24)}`;
const MODEL = "claude-mock-1";

type FloodSource = Pick<MockProvider, "url" | "enqueue">;

/** The flood, rendered before it is requested, so no timed run includes the mock's work. */
function preparedFlood() {
  return prepareStream("anthropic", flood(DELTAS), MODEL);
}

let chunkEvents = 0;

async function measure(mock: FloodSource): Promise<{ bare: number; loop: number; chunks: number }> {
  const bare: number[] = [];
  const loop: number[] = [];
  // One warm-up of each (module loading, JIT), then the measured runs, alternating.
  for (let i = 0; i <= RUNS; i++) {
    mock.enqueue(preparedFlood());
    bare.push(await bareStream(mock));
    mock.enqueue(preparedFlood());
    loop.push(await loopStream(mock));
  }
  bare.shift();
  loop.shift();
  return { bare: median(bare), loop: median(loop), chunks: chunkEvents };
}

/** The SDK, with the HTTP client codewhale gives it, consuming the flood and nothing else. */
async function bareStream(mock: FloodSource): Promise<number> {
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  const fetch = await providerFetch();
  const client = new Anthropic({ apiKey: KEY, baseURL: mock.url, maxRetries: 0, fetch });
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

type TextArm = "none" | "streamJson" | "text";

/**
 * Text output on the terminal (stdout), stream-json to /dev/null, no output: alternating; the
 * median wall time of each and the median CPU time (user + system) of this process, which
 * other processes on a busy machine disturb less.
 */
async function measureText(
  mock: FloodSource,
): Promise<{ wall: Record<TextArm, number>; cpu: Record<TextArm, number> }> {
  const wall = { none: [] as number[], streamJson: [] as number[], text: [] as number[] };
  const cpu = { none: [] as number[], streamJson: [] as number[], text: [] as number[] };
  for (let i = 0; i <= RUNS; i++) {
    for (const [name, format] of [
      ["none", "none"],
      ["streamJson", "stream-json"],
      ["text", "text"],
    ] as const) {
      mock.enqueue(preparedFlood());
      const before = process.cpuUsage();
      wall[name].push(await loopStream(mock, format));
      const used = process.cpuUsage(before);
      cpu[name].push((used.user + used.system) / 1000);
    }
  }
  const medians = (runs: Record<TextArm, number[]>) => {
    for (const values of Object.values(runs)) values.shift();
    return {
      none: median(runs.none),
      streamJson: median(runs.streamJson),
      text: median(runs.text),
    };
  };
  return { wall: medians(wall), cpu: medians(cpu) };
}

/**
 * One turn through the real loop, writer and exec output, as `codewhale exec` runs it:
 * stream-json to /dev/null, or text as on a terminal (streamed to stdout, tool lines on stderr).
 */
async function loopStream(
  mock: FloodSource,
  format: OutputFormat | "none" = "stream-json",
): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), "cw-bench-"));
  const env = { CODEWHALE_HOME: home, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: mock.url };
  const loaded = loadConfig({ cwd: home, env, flags: { model: `anthropic/${MODEL}` } });
  const bus = createBus<BusEvents>();
  const devNull = createWriteStream("/dev/null");
  const terminal = format === "text";
  const shown = format === "none" ? "stream-json" : format;
  const output = new ExecOutput(shown, terminal ? process.stdout : devNull, process.stderr, {
    streamAnswer: terminal,
    activity: true,
    showThinking: false,
    style: { color: terminal },
    summary: terminal,
    refusal: () => undefined,
  });
  if (format !== "none") bus.on("session/event", output.observe);
  let chunks = 0;
  bus.on("session/event", (event) => {
    if (event.type === "assistant/chunk") chunks++;
  });
  const started = performance.now();
  const agent = await Agent.open({
    bus,
    loaded,
    env,
    cwd: home,
    sessionsDir: join(home, "sessions"),
  });
  const outcome = await agent.submit("flood");
  await output.finish({
    sessionId: agent.sessionId,
    reason: outcome.reason,
    exitCode: 0,
    durationMs: 0,
  });
  const elapsed = performance.now() - started;
  chunkEvents = chunks;
  agent.dispose();
  devNull.end();
  if (outcome.reason !== "completed")
    throw new Error(`loop run ended ${outcome.reason}: ${outcome.error}`);
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

if (process.argv.includes("--serve")) {
  // A mock in its own process: every request of the measuring child gets a flood.
  const mock = await startMockProvider();
  for (let i = 0; i < 2 * (RUNS + 1); i++) mock.enqueue(preparedFlood());
  process.stdout.write(`${mock.url}\n`);
} else if (process.env.TEXT_RESULT) {
  const mock = await startMockProvider();
  try {
    writeFileSync(process.env.TEXT_RESULT, JSON.stringify(await measureText(mock)));
  } finally {
    await mock.close();
  }
} else if (process.env.MOCK_URL) {
  const remote: FloodSource = { url: process.env.MOCK_URL, enqueue: () => undefined };
  process.stdout.write(JSON.stringify(await measure(remote)));
} else {
  const mock = await startMockProvider();
  try {
    process.stdout.write(JSON.stringify(await measure(mock)));
  } finally {
    await mock.close();
  }
}
