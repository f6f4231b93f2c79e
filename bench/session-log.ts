// Benchmarks of the session log: what resume of a long real session costs (read, verify, check
// the checkpoints, derive the history, as resume does) beside merely reading and JSON.parse-ing
// the log, and append throughput with checkpoints beside appendFileSync (no target: the
// throughput targets of the foundation issue were withdrawn, issue #28).
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { type CheckpointSigner, createCheckpointSigner } from "../src/session/checkpoint.ts";
import { checkpointIndexPath } from "../src/session/checkpoint-index.ts";
import type { EventInput } from "../src/session/events.ts";
import { loadOrCreateSigningKey } from "../src/session/signing-key.ts";
import { SessionWriter, type WriterOptions } from "../src/session/writer.ts";

const quick = process.env.BENCH_QUICK === "1";
const APPEND_EVENTS = quick ? 50_000 : 300_000;
/** A long real session: some hundred turns of ten steps. */
const RESUME_EVENTS = quick ? 20_000 : 100_000;
const EXPORT_EVENTS = quick ? 100_000 : 1_000_000;
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

/** The writer's options with checkpoints on: the key and index under `home`. */
function signerIn(home: string): { signer: CheckpointSigner } {
  const key = loadOrCreateSigningKey(home);
  return { signer: createCheckpointSigner(key, checkpointIndexPath(home)) };
}

/**
 * Appends the chunk events through a writer, with a `turn/end` (synced; signed with checkpoints
 * on) after every 10,000; returns the events appended per second.
 */
function appendRate(dir: string, options?: WriterOptions): number {
  const writer = SessionWriter.create(dir, start, options);
  const began = performance.now();
  for (let i = 0; i < APPEND_EVENTS; i++) {
    writer.append(chunk(i));
    if ((i + 1) % 10_000 === 0) writer.append({ type: "turn/end", turn: 0, reason: "completed" });
  }
  writer.close();
  return (writer.seq / (performance.now() - began)) * 1000;
}

/** The writer with checkpoints on beside appendFileSync of the same bytes; no target. */
function benchAppend(dir: string, home: string): string[] {
  const rate = appendRate(dir, signerIn(home));
  const line = Buffer.from(
    `${JSON.stringify({ ...chunk(0), v: 1, seq: 1, ts: new Date().toISOString(), h: "0".repeat(64) })}\n`,
  );
  const batch = Buffer.concat(Array.from({ length: 1000 }, () => line));
  const plainPath = join(dir, "plain.jsonl");
  const plainBegan = performance.now();
  for (let i = 0; i < APPEND_EVENTS; i += 1000) appendFileSync(plainPath, batch);
  const plainRate = (APPEND_EVENTS / (performance.now() - plainBegan)) * 1000;
  return [
    `append with checkpoints on: ${fmt(rate)} events/s (${fmt(APPEND_EVENTS)} chunk events, a turn end every 10,000; no target)`,
    `  baseline appendFileSync of the same bytes in batches of 1000: ${fmt(plainRate)} events/s (writer/baseline ${(rate / plainRate).toFixed(2)}×)`,
  ];
}

/**
 * A realistic log of `events` events (1M by default, for the export benchmark): turns of steps
 * of ~100 chunks, a message, usage and a tool call; with a signer, a checkpoint per turn end.
 */
export function writeReplayLog(
  dir: string,
  signer?: { signer: CheckpointSigner },
  events = EXPORT_EVENTS,
) {
  const writer = SessionWriter.create(dir, start, signer);
  let turn = 0;
  while (writer.seq < events) {
    writer.append({ type: "user/message", text: `task ${turn}` });
    writer.append({ type: "turn/start", turn });
    for (let step = 0; step < 10 && writer.seq < events - 120; step++)
      appendStep(writer, turn, step);
    writer.append({ type: "turn/end", turn, reason: "completed" });
    turn++;
  }
  writer.close();
  return { path: writer.path, turns: turn };
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

export interface Measured {
  ms: number;
  rssMb: number;
  detail: string;
}

export function runChild(script: string, ...args: string[]): Measured {
  const result = spawnSync(process.execPath, [script, ...args], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`replay child failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Measured;
}

/** The run with the median time. */
export function medianRun(runs: Measured[]): Measured {
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]!;
}

export function fmtS(ms: number): string {
  return (ms / 1000).toFixed(2);
}

function benchResume(dir: string, home: string): string[] {
  const signed = writeReplayLog(dir, signerIn(home), RESUME_EVENTS);
  const path = signed.path;
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
  const resumes: Measured[] = [];
  const parses: Measured[] = [];
  for (let i = 0; i < REPLAY_RUNS; i++) {
    resumes.push(runChild(script, "resume", path, home));
    parses.push(runChild(script, "parse", path, home));
  }
  const resume = medianRun(resumes);
  const parse = medianRun(parses);
  return [
    `resume: read, verify, check the ${signed.turns} checkpoints and the index and derive the history of ${fmt(RESUME_EVENTS)} events (${mb(statSync(path).size)} MB) in ${fmtS(resume.ms)} s, peak RSS ${resume.rssMb} MB (${resume.detail}; median of ${REPLAY_RUNS})`,
    `  baseline read + JSON.parse of every line: ${fmtS(parse.ms)} s (resume/baseline ${(resume.ms / parse.ms).toFixed(2)}×)`,
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
    const home = join(dir, "home");
    return [...benchAppend(dir, home), ...benchResume(dir, home)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
