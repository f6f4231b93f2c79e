// The compiled line validators must never accept what zod rejects, on every event type they
// cover, flat and nested; the reader takes zod's verdict whenever a compiled check says no.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { compileCheck } from "../../src/compiled-check.ts";
import { EVENT_TYPES, lineSchemas, SESSION_SCHEMA_VERSION } from "../../src/session/events.ts";

const usage = { input: 1000, output: 100, cache_read: 900, cache_write: 0, reasoning: 0 };
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
  "assistant/message": {
    turn: 0,
    step: 0,
    provider: "anthropic",
    model: "m",
    api: "anthropic",
    request_id: null,
    stop_reason: "tool_use",
    content: [
      { type: "text", text: "hi" },
      { type: "tool_use", id: "t", name: "read", input: { path: "a.ts", n: [1, null, true] } },
    ],
  },
  "step/end": { turn: 0, step: 0, usage, cost: 0.001 },
  "tool/call": {
    turn: 0,
    step: 0,
    call_id: "t",
    name: "read",
    arguments: { path: "a.ts", deep: { list: [{ x: 1.5 }, "s"] } },
    decision: { outcome: "allow", by: "mode" },
  },
  "tool/result": {
    call_id: "t",
    content: "export const a = 1;\n",
    is_error: false,
    original_bytes: 20,
    delivered_bytes: 20,
    truncated: false,
    spill_path: null,
    policy_errors: [],
  },
};
const envelope = (type: string) => ({
  v: SESSION_SCHEMA_VERSION,
  seq: 4,
  ts: "t",
  h: "a".repeat(64),
  type,
});

/** A value for a mutation: JSON of any shape, the few non-JSON values parsing can yield. */
const mutationValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant(undefined),
  fc.constant(Number.POSITIVE_INFINITY),
  fc.integer({ min: -2, max: 2 }),
  fc.double(),
  fc.array(fc.integer({ min: -1, max: 3 }), { maxLength: 3 }),
  fc.constantFrom("allow", "mode", "text", "tool_use", null),
);

/** Sets (or deletes, for undefined) the member at a path of keys and indexes in a copy. */
function mutate(event: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(event)) {
    const copy = [...event];
    const at = typeof head === "number" ? head % (copy.length + 1) : copy.length;
    copy[at] = mutate(copy[at], rest, value);
    return copy.filter((item) => item !== undefined);
  }
  if (typeof event !== "object" || event === null) return event;
  const copy: Record<string, unknown> = { ...(event as Record<string, unknown>) };
  const key = String(head);
  const next = mutate(copy[key], rest, value);
  if (next === undefined) delete copy[key];
  else copy[key] = next;
  return copy;
}

const keys = fc.constantFrom(
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
  "usage",
  "input",
  "cost",
  "content",
  "arguments",
  "decision",
  "outcome",
  "by",
  "request_id",
  "policy_errors",
  "path",
  "deep",
  "list",
);
const mutation = fc.record({
  path: fc.array(fc.oneof(keys, fc.nat({ max: 3 })), { minLength: 1, maxLength: 4 }),
  value: mutationValue,
});

describe("compiled line validators", () => {
  it("are compiled for flat and nested types alike", () => {
    for (const type of ["assistant/chunk", "assistant/message", "tool/call", "step/end"]) {
      assert.ok(compileCheck(lineSchemas[type as "tool/call"]), type);
    }
  });

  it("never accept what zod rejects, on valid events and random deep mutations of them", () => {
    for (const type of EVENT_TYPES) {
      const fast = compileCheck(lineSchemas[type]);
      if (!fast || !valid[type]) continue;
      const base = { ...valid[type], ...envelope(type) };
      assert.equal(fast(base), true, `${type} valid`);
      fc.assert(
        fc.property(fc.array(mutation, { maxLength: 3 }), (mutations) => {
          let event: unknown = base;
          for (const { path, value } of mutations) event = mutate(event, path, value);
          if (typeof event !== "object" || event === null) return;
          const zod = lineSchemas[type].safeParse(event).success;
          const compiled = fast(event as Record<string, unknown>);
          // Stricter would only cost a zod call; looser would weaken the reader.
          if (compiled)
            assert.equal(zod, true, `accepted what zod rejects: ${JSON.stringify(event)}`);
          assert.equal(compiled, zod, `${type}: ${JSON.stringify(event)}`);
        }),
        { numRuns: 300 },
      );
    }
  });

  it("hands a value nested too deep for the stack to zod instead of throwing", () => {
    const fast = compileCheck(lineSchemas["tool/call"]);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const event = { ...valid["tool/call"], ...envelope("tool/call"), arguments: deep };
    assert.equal(fast?.(event), false);
  });
});
