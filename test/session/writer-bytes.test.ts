// The writer's output is pinned byte for byte: a mixed set of events (flat and nested types,
// coalesced deltas, checkpoints, strings JSON must escape, a line larger than the buffer, more
// lines than one buffer holds) written at a fixed clock gives the same file as before any
// speed-up of the encoder, and every line is the canonical body and chained hash recomputed:
// hashed in the appending thread, and by the worker from the second line on or from a later one.
import assert from "node:assert/strict";
import { hash } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, it } from "node:test";
import { canonicalJson } from "../../src/session/canonical-json.ts";
import type { EventInput, SessionEvent } from "../../src/session/events.ts";
import { chainHash, formatLine } from "../../src/session/hash-chain.ts";
import { SessionWriter, type WriterOptions } from "../../src/session/writer.ts";
import { fakeSigner as signer, startPayload, tempDir } from "../support/session-fixtures.ts";

/** The sha256 of the log below as the writer wrote it before its encoder was specialised. */
const PINNED_SHA256 = "39062d404ad049110714863553646539ca49173f8a1e3848c9a53a60c0821dfe";
const ID = "019ad5c0-1234-7abc-8def-0123456789ab";
/** Strings whose JSON needs every kind of escape, or none: quotes, controls, surrogates. */
const AWKWARD = [
  "plain ascii",
  'a "quoted" \\ back\\slash',
  "tab\tnew\nline\r\u0000\u0001\u001f\u007f",
  "naïve café, 日本語, emoji 🐋 and a pair \ud83d\ude00",
  "lone \ud800 high, lone \udfff low, reversed \udc00\ud800",
  "line separators \u2028\u2029 stay raw",
  "",
];

function writeMixedLog(
  dir: string,
  options: WriterOptions = {},
): { path: string; appended: SessionEvent[] } {
  const writer = SessionWriter.create(dir, startPayload, { ...options, id: ID, signer });
  const appended: SessionEvent[] = [];
  const add = (input: EventInput) => appended.push(writer.append(input));
  for (const [turn, text] of AWKWARD.entries()) {
    add({ type: "user/message", text });
    add({ type: "turn/start", turn });
    add({ type: "step/start", turn, step: 0, provider: "anthropic", model: text });
    for (const [block, delta] of AWKWARD.entries())
      add({ type: "assistant/chunk", turn, step: 0, block, kind: "text", delta });
    add({ type: "assistant/chunk", turn, step: 0, block: 9, kind: "thinking", delta: text });
    add({ type: "assistant/chunk", turn, step: 1, block: 0, kind: "tool_input", delta: "{" });
    add({
      type: "assistant/chunk",
      turn,
      step: 1,
      block: 0,
      kind: "text",
      delta: "ab",
      parts: [1, 1],
    });
    add({ type: "compaction/chunk", block: 0, kind: "text", delta: text });
    add({ type: "assistant/chunk", turn, step: 2.5, block: 0, kind: "text", delta: "odd step" });
    const odd = {
      type: "assistant/chunk",
      turn,
      step: 0,
      block: 0,
      kind: "text",
      delta: "x",
      zz: 1,
    };
    add(odd as EventInput);
    for (const delta of AWKWARD)
      writer.appendDelta({ turn, step: 3, block: 0, kind: "text", delta });
    writer.appendDelta({ compaction: true, block: 1, kind: "thinking", delta: text });
    writer.appendDelta({ compaction: true, block: 1, kind: "thinking", delta: "more" });
    add({
      type: "assistant/message",
      turn,
      step: 0,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      api: "anthropic",
      request_id: turn % 2 === 0 ? null : text,
      stop_reason: "tool_use",
      content: [
        { type: "text", text },
        { type: "tool_use", id: "t", name: "ls", input: { b: [1, -0, 2.5e-7], a: text } },
      ],
    });
    add({
      type: "step/end",
      turn,
      step: 0,
      usage: { input: 10, output: 5, cache_read: 0, cache_write: 0, reasoning: 0 },
      cost: turn === 0 ? null : 0.1 + 0.2,
    });
    add({ type: "turn/end", turn, reason: "completed" });
  }
  // More lines than the 1 MiB buffer holds, then one line larger than it.
  for (let i = 0; i < 6000; i++)
    add({
      type: "assistant/chunk",
      turn: 9,
      step: i >> 7,
      block: 0,
      kind: "text",
      delta: AWKWARD[i % 7] ?? "",
    });
  add({ type: "user/message", text: "é".repeat(600_000) });
  add({
    type: "assistant/chunk",
    turn: 9,
    step: 0,
    block: 0,
    kind: "text",
    delta: "after the big line",
  });
  writer.close();
  return { path: writer.path, appended };
}

describe("the writer's bytes", () => {
  const realNow = Date.now;
  beforeEach(() => {
    // A fixed clock that moves one millisecond every third reading, and a second now and then.
    let reads = 0;
    Date.now = () => Date.UTC(2026, 11, 1, 23, 59, 59, 990) + Math.floor(reads++ / 3);
  });
  afterEach(() => {
    Date.now = realNow;
  });

  it("are unchanged for a mixed set of events written at a fixed clock", () => {
    const { path } = writeMixedLog(tempDir());
    const bytes = readFileSync(path);
    assert.equal(hash("sha256", bytes, "hex"), PINNED_SHA256);
  });

  it("are each line's canonical body with its chained hash, and what append returned", () => {
    const { path, appended } = writeMixedLog(tempDir());
    const lines = readFileSync(path, "utf8").split("\n");
    assert.equal(lines.pop(), "");
    let previous = "";
    const byseq = new Map(appended.map((event) => [event.seq, event]));
    for (const line of lines) {
      const { h, ...event } = JSON.parse(line) as SessionEvent;
      const body = canonicalJson(event);
      const expected = chainHash(previous, body);
      assert.equal(line, formatLine(body, expected));
      assert.equal(h, expected);
      const returned = byseq.get(event.seq);
      if (returned) assert.equal(canonicalJson(returned), canonicalJson({ ...event, h }));
      previous = h;
    }
    assert.equal(lines.length, 6158);
  });
});
