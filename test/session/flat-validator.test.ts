// The compiled flat validators must agree with zod on every event type they cover.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { EVENT_TYPES, lineSchemas, SESSION_SCHEMA_VERSION } from "../../src/session/events.ts";
import { compileFlatValidator } from "../../src/session/flat-validator.ts";

const valid: Record<string, Record<string, unknown>> = {
  "assistant/chunk": { turn: 0, step: 1, block: 2, kind: "text", delta: "hi" },
  "turn/end": { turn: 3, reason: "completed" },
  "user/message": { text: "hello" },
  "session/start": {
    session_id: "s",
    cwd: "/",
    version: "1",
    provider: "p",
    model: "m",
    config_fingerprint: "f",
  },
};
const envelope = (type: string) => ({
  v: SESSION_SCHEMA_VERSION,
  seq: 4,
  ts: "t",
  h: "a".repeat(64),
  type,
});

describe("flat validators", () => {
  it("are compiled for flat types and not for nested ones", () => {
    assert.ok(compileFlatValidator(lineSchemas["assistant/chunk"]));
    assert.equal(compileFlatValidator(lineSchemas["assistant/message"]), null);
    assert.equal(compileFlatValidator(lineSchemas["tool/call"]), null);
  });

  it("agree with zod on valid events and on random mutations of them", () => {
    const mutation = fc.record({
      key: fc.constantFrom(
        "turn",
        "kind",
        "delta",
        "text",
        "reason",
        "seq",
        "h",
        "v",
        "extra",
        "type",
        "cwd",
        "parts",
      ),
      value: fc.oneof(
        fc.jsonValue(),
        fc.constant(undefined),
        fc.integer({ min: -2, max: 2 }),
        fc.array(fc.integer({ min: -1, max: 3 }), { maxLength: 3 }),
      ),
    });
    for (const type of EVENT_TYPES) {
      const fast = compileFlatValidator(lineSchemas[type]);
      if (!fast || !valid[type]) continue;
      const base = { ...valid[type], ...envelope(type) };
      assert.equal(fast(base), true, `${type} valid`);
      fc.assert(
        fc.property(fc.array(mutation, { maxLength: 3 }), (mutations) => {
          const event: Record<string, unknown> = { ...base };
          for (const { key, value } of mutations) {
            if (value === undefined) delete event[key];
            else event[key] = value;
          }
          assert.equal(
            fast(event),
            lineSchemas[type].safeParse(event).success,
            JSON.stringify(event),
          );
        }),
      );
    }
  });
});
