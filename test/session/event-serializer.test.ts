// The per-type compiled serializer must produce exactly the generic canonical JSON.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { canonicalJson } from "../../src/session/canonical-json.ts";
import { canonicalEvent } from "../../src/session/event-serializer.ts";
import { SESSION_SCHEMA_VERSION } from "../../src/session/events.ts";
import { sampleTurn } from "../support/session-fixtures.ts";

const envelope = { v: 1, seq: 7, ts: "2026-11-29T23:00:00.000Z" };

describe("compiled event serializer", () => {
  it("matches canonicalJson for every sample event", () => {
    for (const input of sampleTurn()) {
      const event = { ...envelope, ...input };
      assert.equal(canonicalEvent(event), canonicalJson(event));
    }
  });

  it("matches canonicalJson for any strings and nested values, and for unknown keys", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.jsonValue(),
        fc.option(fc.string(), { nil: undefined }),
        (text, json, extra) => {
          const chunk = {
            ...envelope,
            type: "assistant/chunk",
            turn: 1,
            step: 2,
            block: 0,
            kind: "text",
            delta: text,
          };
          assert.equal(canonicalEvent(chunk), canonicalJson(chunk));
          const call = {
            ...envelope,
            type: "tool/call",
            turn: 0,
            step: 0,
            call_id: text,
            name: "x",
            arguments: json,
            decision: { outcome: "allow", by: "default" },
          };
          assert.equal(canonicalEvent(call), canonicalJson(call));
          const odd = { ...chunk, ...(extra === undefined ? {} : { surprise: extra }) };
          assert.equal(canonicalEvent(odd), canonicalJson(odd));
        },
      ),
    );
  });

  it("falls back to the generic path for an unknown type", () => {
    const event = { ...envelope, type: "mystery/event", b: 1, a: 2 };
    assert.equal(canonicalEvent(event), canonicalJson(event));
  });
});

describe("flat events laid out in canonical order", () => {
  it("serialise exactly as canonicalJson, and fall back for anything unusual", async () => {
    const { draftAndBody } = await import("../../src/session/event-serializer.ts");
    const v = SESSION_SCHEMA_VERSION;
    fc.assert(
      fc.property(fc.string(), fc.nat(), fc.nat(), (delta, turn, block) => {
        const input = { type: "assistant/chunk", turn, step: 1, block, kind: "thinking", delta };
        const { draft, body } = draftAndBody(input, 9, "t");
        assert.equal(body, canonicalJson({ ...input, v, seq: 9, ts: "t" }));
        assert.deepEqual(draft, { ...input, v, seq: 9, ts: "t", h: "" });
      }),
    );
    const odd = {
      type: "assistant/chunk",
      turn: 0,
      step: 0,
      block: 0,
      kind: "text",
      delta: "x",
      extra: 1,
    };
    assert.equal(draftAndBody(odd, 1, "t").body, canonicalJson({ ...odd, v, seq: 1, ts: "t" }));
    // An optional member (several deltas in one chunk) takes the generic path, same bytes.
    const { extra: _, ...plain } = odd;
    const joined = { ...plain, delta: "xy", parts: [1, 1] };
    assert.equal(
      draftAndBody(joined, 2, "t").body,
      canonicalJson({ ...joined, v, seq: 2, ts: "t" }),
    );
    const nan = { type: "turn/start", turn: Number.NaN };
    assert.throws(() => draftAndBody(nan, 1, "t"), /not finite/);
  });
});
