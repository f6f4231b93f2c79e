// Generated session logs for the tests and benchmarks that need many of them: one turn's
// events (a prompt, streamed chunks, the answer with its thinking, one tool call and its
// result), and text drawn from a vocabulary with a Zipf-like spread (a few words common, most
// rare) so a query matches a realistic share of events. Shared by test/search,
// bench/session-search.ts and bench/sessions-list.ts.
import type { EventInput, JsonValue } from "../../src/session/events.ts";
import { SessionWriter } from "../../src/session/writer.ts";

/** A session/start payload for generated sessions run in `cwd`. */
export function generatedStart(cwd: string) {
  return {
    cwd,
    version: "generated",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    config_fingerprint: "0".repeat(64),
  };
}

export interface TurnSpec {
  prompt: string;
  /** The answer's text block; none when absent (the message is only the tool call). */
  answer?: string;
  /** A thinking block before the answer. */
  thinking?: string;
  /** The answer streamed as these deltas before the message. */
  chunks?: readonly string[];
  tool: { name: string; input: { [key: string]: JsonValue } };
  result: string;
}

/** One completed turn `n`: prompt, chunks, the assistant message, its call and result. */
export function turnEvents(n: number, spec: TurnSpec): EventInput[] {
  const callId = `call_${n}`;
  const model = { provider: "anthropic", model: "claude-sonnet-4-5" };
  const content: EventInput[] = [];
  const blocks: JsonValue[] = [];
  if (spec.thinking) blocks.push({ type: "thinking", thinking: spec.thinking, signature: "s" });
  if (spec.answer !== undefined) blocks.push({ type: "text", text: spec.answer });
  blocks.push({ type: "tool_use", id: callId, name: spec.tool.name, input: spec.tool.input });
  content.push(
    { type: "user/message", text: spec.prompt },
    { type: "turn/start", turn: n },
    { type: "step/start", turn: n, step: 0, ...model },
    ...(spec.chunks ?? []).map((delta) => ({
      type: "assistant/chunk" as const,
      turn: n,
      step: 0,
      block: 0,
      kind: "text" as const,
      delta,
    })),
    {
      type: "assistant/message",
      turn: n,
      step: 0,
      ...model,
      api: "anthropic",
      request_id: `req_${n}`,
      stop_reason: "tool_use",
      content: blocks,
    },
    {
      type: "step/end",
      turn: n,
      step: 0,
      usage: { input: 1200, output: 300, cache_read: 4000, cache_write: 0, reasoning: 0 },
      cost: 0.0123,
    },
    {
      type: "tool/call",
      turn: n,
      step: 0,
      call_id: callId,
      name: spec.tool.name,
      arguments: spec.tool.input,
      decision: { outcome: "allow", by: "mode" },
    },
    {
      type: "tool/result",
      call_id: callId,
      content: spec.result,
      is_error: false,
      original_bytes: Buffer.byteLength(spec.result),
      delivered_bytes: Buffer.byteLength(spec.result),
      truncated: false,
      spill_path: null,
      policy_errors: [],
    },
    { type: "turn/end", turn: n, reason: "completed" },
  );
  return content;
}

/** Writes a closed session of `turns` in `cwd`; returns the writer (closed unless `keepOpen`). */
export function writeGeneratedSession(
  sessionsDir: string,
  cwd: string,
  turns: readonly EventInput[][],
  keepOpen = false,
): SessionWriter {
  const writer = SessionWriter.create(sessionsDir, generatedStart(cwd));
  for (const events of turns) for (const event of events) writer.append(event);
  if (keepOpen) writer.sync();
  else writer.close();
  return writer;
}

/** Words the benchmark queries: placed at middling ranks of the vocabulary. */
export const TOPIC_WORDS = `retry policy backoff jitter deadline socket timeout parser lexer token
buffer stream chunk cache eviction index migration schema column table query planner cursor
commit rollback branch merge rebase review deploy rollout canary metric alert dashboard latency
throughput queue worker thread mutex channel promise future async await module bundle import
export config flag option default session log event hash chain receipt verify signature key
secret redact sandbox network proxy mount overlay kernel process signal terminal render frame
glyph width`
  .split(/\s+/)
  .filter(Boolean);

const SYLLABLES = "ka lo mi nu pe ra si to vu xe za bo ce di fa gu hi jo ".split(" ");

/**
 * Text from a fixed vocabulary of `size` words whose k-th word is drawn with probability
 * ∝ 1/k (Zipf), deterministic from `seed`. The topic words sit at ranks 100 to 3,000.
 */
export class TextGenerator {
  private readonly vocabulary: string[] = [];
  private readonly cumulative: number[] = [];
  private state: number;

  constructor(seed = 42, size = 20_000) {
    this.state = seed;
    for (let k = 0; this.vocabulary.length < size; k++) this.vocabulary.push(this.madeUpWord(k));
    TOPIC_WORDS.forEach((word, i) => {
      this.vocabulary[100 + i * 29] = word;
    });
    let total = 0;
    for (let k = 1; k <= size; k++) {
      total += 1 / k;
      this.cumulative.push(total);
    }
  }

  /** `n` words separated by spaces. */
  words(n: number): string {
    const out: string[] = [];
    const total = this.cumulative[this.cumulative.length - 1]!;
    for (let i = 0; i < n; i++) out.push(this.vocabulary[this.rank(this.random() * total)]!);
    return out.join(" ");
  }

  /** A number in [0, 1) (mulberry32: 32-bit integer steps, so no precision is lost). */
  random(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  private rank(target: number): number {
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private madeUpWord(k: number): string {
    let word = "";
    for (let n = k + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) {
      word += SYLLABLES[n % SYLLABLES.length];
    }
    return word;
  }
}
