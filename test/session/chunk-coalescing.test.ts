// Streamed deltas that arrive together are one `assistant/chunk`: every delta survives (its
// length in `parts`), the log keeps arrival order against every other append, the live feed
// gets exactly the logged event, and a failure on a later turn is thrown, never lost.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { DeltaInput } from "../../src/session/chunk-coalescer.ts";
import { MAX_CHUNK_CHARS, MAX_CHUNK_PARTS } from "../../src/session/chunk-coalescer.ts";
import { chunkDeltas, type EventOf, type SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { SessionWriter, type WriterOptions } from "../../src/session/writer.ts";
import { startPayload, tempDir } from "../support/session-fixtures.ts";

type Chunk = EventOf<"assistant/chunk">;

const nextTurnOfTheLoop = () => new Promise((resolve) => setImmediate(resolve));

function delta(text: string, block = 0, kind: DeltaInput["kind"] = "text"): DeltaInput {
  return { turn: 1, step: 2, block, kind, delta: text };
}

function writer(options: WriterOptions = {}): SessionWriter {
  return SessionWriter.create(tempDir(), startPayload, options);
}

/** Every event after session/start, as read back from the file. */
function logged(w: SessionWriter): SessionEvent[] {
  w.close();
  return readSession(w.path).events.slice(1);
}

function chunks(events: SessionEvent[]): Chunk[] {
  return events.filter((e): e is Chunk => e.type === "assistant/chunk");
}

describe("session log: deltas that arrive together", () => {
  it("are one chunk whose parts give every delta back", () => {
    const w = writer();
    const texts = ["Hel", "", "lo 🐳", " wor", "ld"];
    for (const text of texts) w.appendDelta(delta(text));
    const [chunk, ...rest] = logged(w);
    assert.equal(rest.length, 0);
    assert.ok(chunk?.type === "assistant/chunk");
    assert.equal(chunk.delta, texts.join(""));
    assert.deepEqual(chunk.parts, [3, 0, 5, 4, 2]);
    assert.deepEqual(chunkDeltas(chunk), texts);
    assert.deepEqual([chunk.turn, chunk.step, chunk.block, chunk.kind], [1, 2, 0, "text"]);
  });

  it("a delta on a later turn of the event loop starts a new chunk, without parts", async () => {
    const w = writer();
    w.appendDelta(delta("one"));
    await nextTurnOfTheLoop();
    w.appendDelta(delta("two"));
    await nextTurnOfTheLoop();
    const found = chunks(logged(w));
    assert.deepEqual(
      found.map((c) => [c.delta, c.parts]),
      [
        ["one", undefined],
        ["two", undefined],
      ],
    );
  });

  it("another block or kind starts a new chunk", () => {
    const w = writer();
    w.appendDelta(delta("think", 0, "thinking"));
    w.appendDelta(delta("ing", 0, "thinking"));
    w.appendDelta(delta("answer", 1, "text"));
    w.appendDelta(delta("{", 2, "tool_input"));
    w.appendDelta(delta("}", 2, "tool_input"));
    const found = chunks(logged(w)).map((c) => [c.block, c.kind, chunkDeltas(c)]);
    assert.deepEqual(found, [
      [0, "thinking", ["think", "ing"]],
      [1, "text", ["answer"]],
      [2, "tool_input", ["{", "}"]],
    ]);
  });

  it("any other append records the kept deltas first, so the log keeps arrival order", () => {
    const w = writer();
    w.appendDelta(delta("a"));
    w.appendDelta(delta("b"));
    w.append({ type: "steering/message", turn: 1, text: "also check the tests" });
    w.appendDelta(delta("c"));
    const order = logged(w).map((e) => (e.type === "assistant/chunk" ? e.delta : e.type));
    assert.deepEqual(order, ["ab", "steering/message", "c"]);
  });

  it(`holds at most ${MAX_CHUNK_PARTS} deltas and about ${MAX_CHUNK_CHARS} characters`, () => {
    const w = writer();
    const count = MAX_CHUNK_PARTS * 3 + 5;
    for (let i = 0; i < count; i++) w.appendDelta(delta(`${i},`));
    const big = "x".repeat(MAX_CHUNK_CHARS / 2);
    for (let i = 0; i < 3; i++) w.appendDelta(delta(big, 1));
    const found = chunks(logged(w));
    const small = found.filter((c) => c.block === 0);
    assert.deepEqual(
      small.map((c) => c.parts?.length ?? 1),
      [MAX_CHUNK_PARTS, MAX_CHUNK_PARTS, MAX_CHUNK_PARTS, 5],
    );
    assert.equal(small.flatMap(chunkDeltas).join(""), `${[...Array(count).keys()].join(",")},`);
    assert.deepEqual(
      found.filter((c) => c.block === 1).map((c) => c.delta.length),
      [MAX_CHUNK_CHARS, MAX_CHUNK_CHARS / 2],
    );
  });

  it("publishes the chunk once, when it is recorded, with exactly the logged fields", async () => {
    const published: SessionEvent[] = [];
    const w = writer({ publish: (event) => published.push(event) });
    w.appendDelta(delta("x"));
    w.appendDelta(delta("y"));
    assert.equal(published.length, 1, "only session/start so far");
    await nextTurnOfTheLoop();
    assert.equal(published.length, 2);
    assert.deepEqual(published.slice(1), logged(w));
  });

  it("close records what is kept", () => {
    const w = writer();
    w.appendDelta(delta("last words"));
    assert.deepEqual(
      chunks(logged(w)).map((c) => c.delta),
      ["last words"],
    );
  });

  it("a failure while recording on a later turn is thrown by the next call, not lost", async () => {
    let fail = true;
    const w = writer({
      publish: (event) => {
        if (event.type === "assistant/chunk" && fail) throw new Error("listener broke");
      },
    });
    w.appendDelta(delta("x"));
    await nextTurnOfTheLoop();
    fail = false;
    assert.throws(() => w.appendDelta(delta("y")), /listener broke/);
    w.append({ type: "user/message", text: "still writing" });
    const order = logged(w).map((e) => (e.type === "assistant/chunk" ? e.delta : e.type));
    assert.deepEqual(order, ["x", "user/message"], "the failed listener did not cost the record");
  });

  it("any interleaving keeps every delta, in order, and every other event in place", async () => {
    const step = fc.oneof(
      fc.record({
        op: fc.constant("delta" as const),
        block: fc.nat({ max: 2 }),
        text: fc.string(),
      }),
      fc.record({ op: fc.constant("tick" as const) }),
      fc.record({ op: fc.constant("note" as const), text: fc.string() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        const w = writer();
        const expected: string[] = [];
        for (const s of steps) {
          if (s.op === "tick") await nextTurnOfTheLoop();
          else if (s.op === "note") {
            w.append({ type: "context/note", turn: 1, source: "test", text: s.text });
            expected.push(`note:${s.text}`);
          } else {
            w.appendDelta(delta(s.text, s.block));
            expected.push(`${s.block}:${s.text}`);
          }
        }
        const seen = logged(w).flatMap((e) =>
          e.type === "assistant/chunk"
            ? chunkDeltas(e).map((text) => `${e.block}:${text}`)
            : e.type === "context/note"
              ? [`note:${e.text}`]
              : [],
        );
        assert.deepEqual(seen, expected);
      }),
      { numRuns: 60 },
    );
  });
});
