// deriveMessages across `context/compaction`: the newest summary replaces what it covers, the
// last prompt and the kept messages follow verbatim, steering waiting for the next step stays
// waiting, and the summarising request's own events contribute nothing. Pure, over real logs.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SUMMARY_HEADER, summaryBody } from "../../src/session/compaction-summary.ts";
import type { HistoryMessage } from "../../src/session/derive.ts";
import { deriveMessages } from "../../src/session/derive.ts";
import type { EventInput, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { sampleTurn, tempDir, writeSession } from "../support/session-fixtures.ts";

const usage = { input: 100, output: 20, cache_read: 0, cache_write: 0, reasoning: 0 };

function events(inputs: EventInput[]): SessionEvent[] {
  const { path } = writeSession(tempDir(), inputs);
  return readSession(path).events;
}

function compaction(
  fields: Partial<Extract<EventInput, { type: "context/compaction" }>> & { summary: string },
): EventInput {
  return {
    type: "context/compaction",
    trigger: "auto",
    first_seq: 1,
    last_seq: 1,
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    request_id: "req_s",
    usage,
    cost: null,
    tokens_before: 1000,
    tokens_after: 100,
    ...fields,
  };
}

/** A message as text: a user message's text, an assistant message's text blocks, a tool's role. */
function text(message: HistoryMessage): string {
  if (message.role === "user") return message.text;
  if (message.role === "tool") return "tool";
  const blocks = message.content as Array<{ type?: string; text?: string }>;
  return blocks.map((block) => (block.type === "text" ? block.text : block.type)).join("");
}

function summarising(text: string): EventInput[] {
  return [
    {
      type: "compaction/start",
      trigger: "auto",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      tokens_before: 1000,
    },
    { type: "compaction/chunk", block: 0, kind: "text", delta: text },
  ];
}

describe("deriveMessages with compaction", () => {
  it("puts the summary in place of what it covers, then the last prompt, then the kept messages", () => {
    const first = sampleTurn(0);
    const second = sampleTurn(1);
    const log = events([...first, ...second]);
    const keptFrom = log.find((e) => e.seq > 10 && e.type === "assistant/message")!;
    const prompt = log.find((e) => e.seq > 10 && e.type === "user/message")!;
    const all = events([
      ...first,
      ...second,
      ...summarising("S1"),
      compaction({ summary: "S1", kept_from_seq: keptFrom.seq, kept_user_seq: prompt.seq }),
    ]);
    const messages = deriveMessages(all);
    assert.deepEqual(
      messages.map((m) => m.role),
      ["user", "assistant", "user", "assistant", "tool"],
    );
    assert.deepEqual(messages.slice(0, 2).map(text), [SUMMARY_HEADER, summaryBody("S1")]);
    assert.equal(messages[2]!.seq, prompt.seq);
    assert.equal(messages[3]!.seq, keptFrom.seq);
    // A prefix of the log derives what it derived before the compaction.
    const before = deriveMessages(all.slice(0, log.length));
    assert.equal(before.length, 6);
  });

  it("the newest of several compactions wins, and its summary replaces the previous one", () => {
    const all = events([
      ...sampleTurn(0),
      ...summarising("S1"),
      compaction({ summary: "S1" }),
      ...sampleTurn(1),
      ...summarising("S2"),
      compaction({ summary: "S2" }),
    ]);
    const messages = deriveMessages(all);
    assert.deepEqual(messages.map(text), [SUMMARY_HEADER, summaryBody("S2")]);
  });

  it("steering sent before a compaction still reaches the model at the next step", () => {
    const all = events([
      ...sampleTurn(0),
      { type: "steering/message", turn: 0, text: "also check b" },
      ...summarising("S1"),
      compaction({ summary: "S1" }),
      { type: "step/start", turn: 0, step: 1, provider: "anthropic", model: "claude-sonnet-4-5" },
    ]);
    const texts = deriveMessages(all).map(text);
    assert.deepEqual(texts, [SUMMARY_HEADER, summaryBody("S1"), "also check b"]);
  });

  it("replaying the same log twice derives the same history", () => {
    const all = events([...sampleTurn(0), ...summarising("S1"), compaction({ summary: "S1" })]);
    assert.deepEqual(deriveMessages(all), deriveMessages(all));
  });
});
