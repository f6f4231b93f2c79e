// The stream-json projection of a streamed delta: the line encoded straight into a buffer is
// byte for byte the projected text, for any delta text, block, kind and seq, and a
// `message_delta` line carries response text only (thinking travels in its own field).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  deltaLineMaxBytes,
  encodeDeltaLine,
  projectEventText,
} from "../../src/present/stream-json.ts";
import type { EventOf } from "../../src/session/events.ts";

type Chunk = EventOf<"assistant/chunk">;
const KINDS = ["text", "thinking", "tool_input"] as const;

function chunk(
  seq: number,
  turn: number,
  step: number,
  block: number,
  kind: Chunk["kind"],
  delta: string,
): Chunk {
  return {
    v: 1,
    seq,
    ts: "2026-11-30T00:00:00.000Z",
    type: "assistant/chunk",
    turn,
    step,
    block,
    kind,
    delta,
    h: "0".repeat(64),
  };
}

describe("stream-json delta lines", () => {
  it("encode to exactly the projected text", () => {
    const buffer = Buffer.alloc(1 << 16);
    fc.assert(
      fc.property(
        fc.nat({ max: Number.MAX_SAFE_INTEGER }),
        fc.nat({ max: 3 }),
        fc.nat({ max: 3 }),
        fc.nat({ max: 3 }),
        fc.constantFrom(...KINDS),
        fc.string({ unit: "binary", maxLength: 200 }),
        fc.nat({ max: 1000 }),
        (seq, turn, step, block, kind, delta, at) => {
          const event = chunk(seq, turn, step, block, kind, delta);
          const end = encodeDeltaLine(event, buffer, at);
          assert.ok(end - at <= deltaLineMaxBytes(event));
          assert.equal(buffer.subarray(at, end).toString("utf8"), projectEventText(event));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("puts response text in `text` and thinking in `thinking`", () => {
    const text = JSON.parse(projectEventText(chunk(7, 1, 1, 1, "text", "hi")));
    assert.deepEqual(text, {
      type: "message_delta",
      seq: 7,
      turn: 1,
      step: 1,
      block: 1,
      kind: "text",
      text: "hi",
    });
    const thinking = JSON.parse(projectEventText(chunk(8, 1, 1, 0, "thinking", "hmm")));
    assert.equal(thinking.type, "thinking_delta");
    assert.equal(thinking.thinking, "hmm");
    assert.equal("text" in thinking, false);
  });
});
