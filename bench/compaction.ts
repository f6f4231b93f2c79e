// Benchmarks of context compaction (issue 18): deriving the history of a 1,000,000-event session
// with 50 compactions beside the same session without any (derive.ts over the events, as a
// resume or an export replays them; parsing and hashing the log costs both the same), and the
// per-step token estimate over a 200-step session, the running estimate (token-estimate.ts)
// beside today's re-serialise-everything estimate (the one turn.ts used before), as a curve.
import { TokenEstimate } from "../src/agent/token-estimate.ts";
import { MessageDeriver } from "../src/session/derive.ts";
import type { EventInput, SessionEvent } from "../src/session/events.ts";

const quick = process.env.BENCH_QUICK === "1";
const EVENTS = quick ? 100_000 : 1_000_000;
const COMPACTIONS = 50;
const RUNS = 3;
const STEPS = 200;
const usage = { input: 100, output: 20, cache_read: 0, cache_write: 0, reasoning: 0 };
const RESULT = "src/agent/turn.ts:12: export async function runTurn(ctx, turn, control) {\n".repeat(
  30,
);

/** The events of one step of a tool-calling turn (13 events). */
function stepEvents(step: number): EventInput[] {
  const id = `toolu_${step}`;
  const chunk = (delta: string): EventInput => ({
    type: "assistant/chunk",
    turn: 0,
    step,
    block: 0,
    kind: "text",
    delta,
  });
  return [
    { type: "step/start", turn: 0, step, provider: "anthropic", model: "claude-sonnet-4-6" },
    ...Array.from({ length: 8 }, () => chunk("Reading the next file. ")),
    {
      type: "assistant/message",
      turn: 0,
      step,
      provider: "anthropic",
      model: "claude-sonnet-4-6",
      api: "anthropic",
      request_id: null,
      stop_reason: "tool_use",
      content: [
        { type: "text", text: "Reading the next file." },
        { type: "tool_use", id, name: "read", input: { path: `src/f${step}.ts` } },
      ],
    },
    { type: "step/end", turn: 0, step, usage, cost: 0.001 },
    {
      type: "tool/call",
      turn: 0,
      step,
      call_id: id,
      name: "read",
      arguments: { path: `src/f${step}.ts` },
      decision: { outcome: "allow", by: "mode" },
    },
    {
      type: "tool/result",
      call_id: id,
      content: RESULT,
      is_error: false,
      original_bytes: RESULT.length,
      delivered_bytes: RESULT.length,
      truncated: false,
      spill_path: null,
      policy_errors: [],
    },
  ];
}

/** A session of `count` events as a reader returns them; with `compactions`, evenly spaced. */
function session(count: number, compactions: number): SessionEvent[] {
  const events: SessionEvent[] = [];
  const push = (input: EventInput) =>
    events.push({ ...input, v: 1, seq: events.length, ts: "", h: "" } as SessionEvent);
  push({ type: "user/message", text: "read every file" });
  push({ type: "turn/start", turn: 0 });
  const every = compactions === 0 ? Number.POSITIVE_INFINITY : Math.floor(count / compactions);
  let next = every;
  let lastAssistant = 0;
  for (let step = 0; events.length < count; step++) {
    for (const input of stepEvents(step)) {
      if (input.type === "assistant/message") lastAssistant = events.length;
      push(input);
    }
    if (events.length >= next) {
      next += every;
      push({
        type: "context/compaction",
        trigger: "auto",
        first_seq: 0,
        last_seq: lastAssistant - 1,
        kept_from_seq: lastAssistant,
        kept_user_seq: 0,
        summary: "The user asked to read every file; files 0 to N were read.",
        provider: "anthropic",
        model: "claude-sonnet-4-6",
        request_id: null,
        usage,
        cost: 0.01,
        tokens_before: 160_000,
        tokens_after: 4_000,
      });
    }
  }
  return events;
}

function deriveMs(events: readonly SessionEvent[]): { ms: number; messages: number } {
  const began = performance.now();
  const deriver = new MessageDeriver();
  for (const event of events) deriver.push(event);
  const messages = deriver.messages().length;
  return { ms: performance.now() - began, messages };
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

function benchDerive(): string[] {
  const plain = session(EVENTS, 0);
  const compacted = session(EVENTS, COMPACTIONS);
  const plainMs: number[] = [];
  const compactedMs: number[] = [];
  let counts = { plain: 0, compacted: 0 };
  // Alternated, median of three each: the ratio is what a shared machine can show.
  for (let i = 0; i < RUNS; i++) {
    const a = deriveMs(plain);
    const b = deriveMs(compacted);
    plainMs.push(a.ms);
    compactedMs.push(b.ms);
    counts = { plain: a.messages, compacted: b.messages };
  }
  const a = median(plainMs);
  const b = median(compactedMs);
  return [
    `derive ${plain.length.toLocaleString("en-US")} events, no compaction: ${a.toFixed(0)} ms (${counts.plain} messages)`,
    `derive ${compacted.length.toLocaleString("en-US")} events, ${COMPACTIONS} compactions: ${b.toFixed(0)} ms (${counts.compacted} messages), ${(b / a).toFixed(2)}× the time without`,
  ];
}

/** Today's estimate before this change: every byte of the request, re-serialised per step. */
function reserialised(system: string, tools: object, deriver: MessageDeriver): number {
  const bytes =
    Buffer.byteLength(system) +
    Buffer.byteLength(JSON.stringify(tools)) +
    Buffer.byteLength(JSON.stringify(deriver.messages()));
  return Math.ceil(bytes / 4);
}

function benchEstimate(): string[] {
  const system = "You are codewhale, a coding agent. ".repeat(40);
  const tools = [{ name: "read", description: "Reads a file.", input_schema: { type: "object" } }];
  const deriver = new MessageDeriver();
  const estimate = new TokenEstimate();
  const old: number[] = [];
  const running: number[] = [];
  let seq = 0;
  const feed = (input: EventInput) => {
    const event = { ...input, v: 1, seq: seq++, ts: "", h: "" } as SessionEvent;
    deriver.push(event);
    estimate.observe(event, deriver);
  };
  feed({ type: "user/message", text: "read every file" });
  // A first count loads the tokenizer (once per process), outside the curve.
  estimate.tokens(system, tools);
  for (let step = 0; step < STEPS; step++) {
    for (const input of stepEvents(step)) feed(input);
    const t0 = performance.now();
    for (let r = 0; r < 5; r++) reserialised(system, tools, deriver);
    const t1 = performance.now();
    estimate.tokens(system, tools);
    const t2 = performance.now();
    old.push((t1 - t0) / 5);
    running.push(t2 - t1);
  }
  const at = [1, 50, 100, 150, 200];
  const cell = (values: number[], step: number) => `${(values[step - 1]! * 1000).toFixed(0)} µs`;
  const window = (values: number[], from: number) => median(values.slice(from, from + 10)) * 1000;
  return [
    `per-step token estimate over ${STEPS} steps (µs per step, at step ${at.join(", ")}; median of 10 steps around 10 and 190):`,
    `  re-serialise everything (before): ${at.map((s) => cell(old, s)).join(", ")}; ${window(old, 5).toFixed(0)} → ${window(old, 185).toFixed(0)} µs`,
    `  running estimate (now, counts each new message once): ${at.map((s) => cell(running, s)).join(", ")}; ${window(running, 5).toFixed(0)} → ${window(running, 185).toFixed(0)} µs`,
  ];
}

export async function benchCompaction(): Promise<string[]> {
  return [...benchDerive(), ...benchEstimate()];
}
