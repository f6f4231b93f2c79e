// Property: any sequence of valid events, written through the writer and read back, is
// identical and verifies (hash chain, seq, schema, canonical form).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { canonicalJson } from "../../src/session/canonical-json.ts";
import type { EventInput, JsonValue } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { startPayload, tempDir } from "../support/session-fixtures.ts";

const nat = fc.nat({ max: 1000 });
const json = fc.jsonValue() as fc.Arbitrary<unknown> as fc.Arbitrary<JsonValue>;
const text = fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }));
const kind = fc.constantFrom("text" as const, "thinking" as const, "tool_input" as const);
const usage = fc.record({
  input: nat,
  output: nat,
  cache_read: nat,
  cache_write: nat,
  reasoning: nat,
});

const eventArbitrary: fc.Arbitrary<EventInput> = fc.oneof(
  fc.record({ type: fc.constant("user/message" as const), text }),
  fc.record({ type: fc.constant("steering/message" as const), turn: nat, text }),
  fc.record({ type: fc.constant("turn/start" as const), turn: nat }),
  fc
    .record({
      type: fc.constant("assistant/chunk" as const),
      turn: nat,
      step: nat,
      block: nat,
      kind,
      delta: text,
      parts: fc.option(fc.array(nat, { minLength: 2 }), { nil: undefined }),
    })
    .map(({ parts, ...chunk }) => (parts ? { ...chunk, parts } : chunk)),
  fc.record({
    type: fc.constant("assistant/message" as const),
    turn: nat,
    step: nat,
    provider: text,
    model: text,
    api: fc.constantFrom("anthropic" as const, "openai-chat" as const, "openai-responses" as const),
    request_id: fc.option(text, { nil: null }),
    stop_reason: fc.option(text, { nil: null }),
    content: fc.array(json, { maxLength: 4 }),
  }),
  fc.record({
    type: fc.constant("step/end" as const),
    turn: nat,
    step: nat,
    usage,
    cost: fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: null }),
  }),
  fc.record(
    {
      type: fc.constant("tool/call" as const),
      turn: nat,
      step: nat,
      call_id: text,
      name: text,
      arguments: json,
      original_arguments: json,
      decision: fc.record({
        outcome: fc.constantFrom("allow" as const, "deny" as const, "ask" as const),
        by: fc.constantFrom("default" as const, "rule" as const, "hook" as const),
      }),
    },
    { requiredKeys: ["type", "turn", "step", "call_id", "name", "arguments", "decision"] },
  ),
  fc.record({
    type: fc.constant("tool/result" as const),
    call_id: text,
    content: text,
    is_error: fc.boolean(),
    original_bytes: nat,
    delivered_bytes: nat,
    truncated: fc.boolean(),
    spill_path: fc.option(text, { nil: null }),
    policy_errors: fc.array(text, { maxLength: 2 }),
  }),
);

/** JSON cannot tell -0 from 0; compare values as JSON does. */
function jsonEqual(actual: unknown, expected: unknown): void {
  assert.equal(canonicalJson(actual), canonicalJson(expected));
}

describe("session log round trip (property)", () => {
  it("reads back any sequence of valid events identically, and it verifies", () => {
    const dir = tempDir();
    fc.assert(
      fc.property(fc.array(eventArbitrary, { maxLength: 30 }), (inputs) => {
        const writer = SessionWriter.create(dir, startPayload);
        const appended = inputs.map((input) => writer.append(input));
        writer.close();
        const { events, summary } = readSession(writer.path, { strictCanonical: true });
        assert.equal(events.length, inputs.length + 1);
        jsonEqual(events.slice(1), appended);
        assert.equal(summary.torn, null);
        for (const [i, input] of inputs.entries()) {
          jsonEqual(
            { ...events[i + 1], v: 0, seq: 0, ts: "", h: "" },
            {
              ...input,
              v: 0,
              seq: 0,
              ts: "",
              h: "",
            },
          );
        }
      }),
      { numRuns: 150 },
    );
  });
});
