// Benchmarks of the session log (foundation issue): append throughput through the writer with
// its durability contract beside plain appendFileSync of the same bytes, and replay (open,
// verify, derive) of a 1,000,000-event log beside merely reading and JSON.parse-ing it.
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import type { EventInput } from "../src/session/events.ts";
import { SessionWriter } from "../src/session/writer.ts";

const quick = process.env.BENCH_QUICK === "1";
const APPEND_EVENTS = quick ? 50_000 : 300_000;
const REPLAY_EVENTS = quick ? 100_000 : 1_000_000;
const REPLAY_RUNS = 3;
const DELTA = "the quick brown fox jumps over the dog. "; // 40 bytes

const start = {
  cwd: "/bench",
  version: "bench",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  config_fingerprint: "0".repeat(64),
};

function chunk(i: number): EventInput {
  return { type: "assistant/chunk", turn: 0, step: i >> 7, block: 0, kind: "text", delta: DELTA };
}

function benchAppend(dir: string): string[] {
  const writer = SessionWriter.create(dir, start);
  const began = performance.now();
  for (let i = 0; i < APPEND_EVENTS; i++) writer.append(chunk(i));
  writer.close();
  const writerMs = performance.now() - began;
  const bytes = statSync(writer.path).size;
  const lines = Buffer.from(
    `${JSON.stringify({ ...chunk(0), v: 1, seq: 1, ts: new Date().toISOString(), h: "0".repeat(64) })}\n`,
  );
  const batch = Buffer.concat(Array.from({ length: 1000 }, () => lines));
  const plainPath = join(dir, "plain.jsonl");
  const plainBegan = performance.now();
  for (let i = 0; i < APPEND_EVENTS; i += 1000) appendFileSync(plainPath, batch);
  const plainMs = performance.now() - plainBegan;
  const rate = (APPEND_EVENTS / writerMs) * 1000;
  const plainRate = (APPEND_EVENTS / plainMs) * 1000;
  return [
    `append: ${fmt(rate)} events/s through the writer (${APPEND_EVENTS} chunk events, ${mb(bytes)} MB; target ≥ 300,000)`,
    `  baseline appendFileSync of the same bytes in batches of 1000: ${fmt(plainRate)} events/s (writer/baseline ${(rate / plainRate).toFixed(2)}×)`,
  ];
}

/** A realistic 1M-event log: turns of steps of ~100 chunks, a message, usage and a tool call. */
function writeReplayLog(dir: string): string {
  const writer = SessionWriter.create(dir, start);
  let turn = 0;
  while (writer.seq < REPLAY_EVENTS) {
    writer.append({ type: "user/message", text: `task ${turn}` });
    writer.append({ type: "turn/start", turn });
    for (let step = 0; step < 10 && writer.seq < REPLAY_EVENTS - 120; step++)
      appendStep(writer, turn, step);
    writer.append({ type: "turn/end", turn, reason: "completed" });
    turn++;
  }
  writer.close();
  return writer.path;
}

function appendStep(writer: SessionWriter, turn: number, step: number): void {
  writer.append({
    type: "step/start",
    turn,
    step,
    provider: "anthropic",
    model: "claude-sonnet-4-5",
  });
  for (let i = 0; i < 100; i++)
    writer.append({ type: "assistant/chunk", turn, step, block: 0, kind: "text", delta: DELTA });
  const id = `toolu_${turn}_${step}`;
  writer.append({
    type: "assistant/message",
    turn,
    step,
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    api: "anthropic",
    request_id: "req",
    stop_reason: "tool_use",
    content: [
      { type: "text", text: DELTA.repeat(100) },
      { type: "tool_use", id, name: "read", input: { path: "a.ts" } },
    ],
  });
  const usage = { input: 1000, output: 100, cache_read: 900, cache_write: 0, reasoning: 0 };
  writer.append({ type: "step/end", turn, step, usage, cost: 0.001 });
  writer.append({
    type: "tool/call",
    turn,
    step,
    call_id: id,
    name: "read",
    arguments: { path: "a.ts" },
    decision: { outcome: "allow", by: "mode" },
  });
  writer.append({
    type: "tool/result",
    call_id: id,
    content: "export const a = 1;\n",
    is_error: false,
    original_bytes: 20,
    delivered_bytes: 20,
    truncated: false,
    spill_path: null,
    policy_errors: [],
  });
}

interface Measured {
  ms: number;
  rssMb: number;
  detail: string;
}

function runChild(script: string, mode: string, path: string): Measured {
  const result = spawnSync(process.execPath, [script, mode, path], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`replay child failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Measured;
}

/** The run with the median time. */
function medianRun(runs: Measured[]): Measured {
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]!;
}

function fmtS(ms: number): string {
  return (ms / 1000).toFixed(2);
}

function benchReplay(dir: string): string[] {
  const path = writeReplayLog(dir);
  const script = join(dir, "replay-child.mjs");
  const entry = new URL("./replay-child.ts", import.meta.url).pathname;
  buildSync({
    entryPoints: [entry],
    outfile: script,
    bundle: true,
    platform: "node",
    format: "esm",
    logLevel: "warning",
  });
  // Alternating, median of three of each: one slow run on a shared machine is not the figure.
  const replays: Measured[] = [];
  const parses: Measured[] = [];
  for (let i = 0; i < REPLAY_RUNS; i++) {
    replays.push(runChild(script, "replay", path));
    parses.push(runChild(script, "parse", path));
  }
  const replay = medianRun(replays);
  const parse = medianRun(parses);
  const spread = (runs: Measured[]) =>
    `${fmtS(Math.min(...runs.map((r) => r.ms)))}–${fmtS(Math.max(...runs.map((r) => r.ms)))} s`;
  return [
    `replay: open, verify and deriveMessages of ${fmt(REPLAY_EVENTS)} events (${mb(statSync(path).size)} MB) in ${fmtS(replay.ms)} s, peak RSS ${replay.rssMb} MB (${replay.detail}; median of ${REPLAY_RUNS}, runs ${spread(replays)}; target ≤ 2 s, ≤ 400 MB)`,
    `  baseline read + JSON.parse of every line: ${fmtS(parse.ms)} s, peak RSS ${parse.rssMb} MB (runs ${spread(parses)}; replay/baseline ${(replay.ms / parse.ms).toFixed(2)}×)`,
  ];
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

export async function benchSessionLog(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "cw-bench-"));
  try {
    return [...benchAppend(dir), ...benchReplay(dir)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
