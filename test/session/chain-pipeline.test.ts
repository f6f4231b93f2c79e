// The writer with its chain hashed on a worker (chain-pipeline.ts): the same bytes as hashing in
// the appending thread over many laps of the worker's ring, every event published once, in
// order and with its final h (a streamed chunk by the next turn of the event loop, anything
// else before its append returns), and a failed write still breaks the writer cleanly (a full
// disk on the worker: test/session/write-failure.test.ts).
import assert from "node:assert/strict";
import { hash } from "node:crypto";
import { closeSync, existsSync, readFileSync } from "node:fs";
import { afterEach, describe, it } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import { SessionWriteError } from "../../src/errors.ts";
import { ChainPipeline, ChainWorkerError, writeRange } from "../../src/session/chain-pipeline.ts";
import type { EventInput, SessionEvent } from "../../src/session/events.ts";
import { chainHash, formatLine } from "../../src/session/hash-chain.ts";
import { readSession } from "../../src/session/reader.ts";
import { SessionWriter, type WriterOptions } from "../../src/session/writer.ts";
import { fakeSigner as signer, startPayload, tempDir } from "../support/session-fixtures.ts";

const ID = "019ad5c0-1234-7abc-8def-0123456789ab";
const TEXTS = ["plain", 'a "quote" \\', "tab\tnl\n", "naïve 日本 🐋", "lone \ud800", ""];

function chunk(i: number, delta: string): EventInput {
  return { type: "assistant/chunk", turn: 0, step: i >> 9, block: 0, kind: "text", delta };
}

/**
 * 150,000 events (~30 MB: the worker's 4 MiB ring goes round several times, and its 65,536
 * entries twice), with deltas of every kind, a turn end and checkpoint every 7,000, and three
 * lines too large for a ring slot.
 */
function writeLarge(options: WriterOptions): string {
  // Each log from the same clock: one millisecond every fifth reading.
  let reads = 0;
  Date.now = () => Date.UTC(2026, 11, 2, 3, 0, 0) + Math.floor(reads++ / 5);
  const writer = SessionWriter.create(tempDir(), startPayload, { ...options, id: ID, signer });
  for (let i = 0; i < 150_000; i++) {
    const text = TEXTS[i % TEXTS.length] as string;
    writer.append(chunk(i, `${text} ${"x".repeat(i % 300)}`));
    if (i % 7000 === 6999) writer.append({ type: "turn/end", turn: 0, reason: "completed" });
    if (i % 50_000 === 25_000) writer.append({ type: "user/message", text: "é".repeat(700_000) });
  }
  writer.close();
  return writer.path;
}

describe("the writer hashing on a worker", () => {
  const realNow = Date.now;
  afterEach(() => {
    Date.now = realNow;
  });

  it("writes the bytes of the in-thread writer over many laps of its ring", () => {
    const inThread = readFileSync(writeLarge({ chainWorkerAfter: Number.POSITIVE_INFINITY }));
    const onWorker = readFileSync(writeLarge({ chainWorkerAfter: 1 }));
    assert.ok(inThread.length > 30_000_000, `only ${inThread.length} bytes`);
    assert.equal(hash("sha256", onWorker, "hex"), hash("sha256", inThread, "hex"));
  });

  it("publishes every event once, in order, with its final h", async () => {
    const published: SessionEvent[] = [];
    const writer = SessionWriter.create(tempDir(), startPayload, {
      signer,
      chainWorkerAfter: 100,
      publish: (event) => published.push(event),
    });
    const returned: SessionEvent[] = [];
    for (let i = 0; i < 5000; i++) {
      returned.push(writer.append(chunk(i, `d${i}`)));
      if (i % 1000 === 500) {
        // Anything but a streamed chunk is published, with the chunks before it, before its
        // append returns, and returns with its h.
        const result = writer.append({ type: "turn/start", turn: i });
        returned.push(result);
        assert.match(result.h, /^[0-9a-f]{64}$/);
        assert.equal(published.at(-1), result);
        assert.equal(published.length, result.seq + 1);
      }
      if (i % 1000 === 900) {
        const end = writer.append({ type: "turn/end", turn: 0, reason: "completed" });
        returned.push(end);
        assert.equal(published.at(-1)?.type, "session/checkpoint", "the checkpoint follows");
        assert.equal(published.at(-2), end);
      }
    }
    // A chunk is published by the next turn of the event loop.
    const last = writer.append(chunk(9999, "last"));
    assert.notEqual(published.at(-1), last, "held back while its h is computed");
    await nextTurn();
    assert.equal(published.at(-1), last);
    assert.match(last.h, /^[0-9a-f]{64}$/);
    writer.close();

    const { events } = readSession(writer.path);
    assert.equal(published.length, events.length, "every event once");
    published.forEach((event, i) => {
      assert.equal(event.seq, i, "in seq order");
      assert.equal(event.h, events[i]?.h, `event ${i} has the h of its line`);
    });
    for (const event of returned) assert.equal(event.h, events[event.seq]?.h);
  });

  it("publishes a listener's own appends after the event it was handed", () => {
    const published: string[] = [];
    let writer: SessionWriter | null = null;
    writer = SessionWriter.create(tempDir(), startPayload, {
      chainWorkerAfter: 10,
      publish: (event) => {
        published.push(`${event.seq}:${event.type}`);
        if (event.type === "tool/call") writer?.append({ type: "turn/start", turn: 1 });
      },
    });
    for (let i = 0; i < 20; i++) writer.append(chunk(i, "x"));
    writer.append({
      type: "tool/call",
      turn: 0,
      step: 0,
      call_id: "c",
      name: "ls",
      arguments: {},
      decision: { outcome: "allow", by: "mode" },
    });
    writer.append(chunk(21, "y"));
    writer.close();
    const seqs = published.map((entry) => Number(entry.split(":")[0]));
    assert.deepEqual(
      seqs,
      seqs.map((_, i) => i),
      published.join(" "),
    );
    assert.deepEqual(published.slice(-3), ["21:tool/call", "22:turn/start", "23:assistant/chunk"]);
  });

  it("a failed write breaks the writer and keeps every complete line", () => {
    const writer = SessionWriter.create(tempDir(), startPayload, { chainWorkerAfter: 10 });
    for (let i = 0; i < 100; i++) writer.append(chunk(i, "kept"));
    writer.append({ type: "user/message", text: "synced" });
    for (let i = 0; i < 100; i++) writer.append(chunk(i, "lost"));
    closeSync((writer as unknown as { fd: number }).fd);
    assert.throws(
      () => writer.append({ type: "user/message", text: "fails" }),
      (e: unknown) => e instanceof SessionWriteError && e.file === writer.path,
    );
    assert.throws(() => writer.append(chunk(0, "refused")), SessionWriteError);
    assert.throws(() => writer.close(), /cannot write the session log .*EBADF/);
    assert.equal(existsSync(`${writer.path}.lock`), false, "the lock is released");
    const { events } = readSession(writer.path);
    assert.equal(events.length, 102);
    assert.equal(events.at(-1)?.type, "user/message");
  });
});

describe("the chain pipeline on its own", () => {
  it("hands out finished lines in order whenever it is settled or flushed", () => {
    // Random bodies (1 B to 300 KB, some non-ASCII) and random settles, flushes and lines the
    // caller writes itself, so that writes start and stop anywhere in the ring's laps: every
    // byte handed to the sink is the chain recomputed here.
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const out: Buffer[] = [];
    const pipeline = new ChainPipeline(
      (bytes, start, length) => out.push(Buffer.from(bytes.subarray(start, start + length))),
      (error) => {
        throw error;
      },
    );
    let previous = "a".repeat(64);
    pipeline.begin(previous);
    const expected: string[] = [];
    const targets: { h: string }[] = [];
    for (let i = 0; i < 40_000; i++) {
      const size = random() < 0.01 ? Math.floor(random() * 300_000) : Math.floor(random() * 400);
      const body = JSON.stringify({ i, text: (i % 5 === 0 ? "é" : "x").repeat(size) });
      const h = chainHash(previous, body);
      expected.push(formatLine(body, h));
      previous = h;
      const target = { h: "" };
      targets.push(target);
      if (random() < 0.002) {
        // As the writer does for a body too large for a slot.
        pipeline.flush();
        out.push(Buffer.from(`${formatLine(body, h)}\n`));
        pipeline.chainFrom(h);
        target.h = h;
      } else assert.equal(pipeline.push(body, target), true);
      const dice = random();
      if (dice < 0.01) pipeline.flush();
      else if (dice < 0.02) assert.equal(pipeline.settle(), h);
    }
    pipeline.flush();
    pipeline.stop();
    const lines = Buffer.concat(out).toString("utf8").split("\n");
    assert.equal(lines.pop(), "");
    assert.equal(lines.length, expected.length);
    for (const [i, line] of lines.entries()) assert.equal(line, expected[i], `line ${i}`);
    for (const [i, target] of targets.entries())
      assert.equal(target.h, hOfLine(expected[i] as string));
  });
});

describe("the chain pipeline's worker failing", () => {
  it("is reported by the next wait at once, as a ChainWorkerError", () => {
    const pipeline = new ChainPipeline(
      () => {},
      (error) => {
        throw error;
      },
    );
    pipeline.begin("a".repeat(64));
    pipeline.push('{"a":1}', { h: "" });
    // The worker is told of entries in batches, so it has not read this one: a length past the
    // ring makes its loop throw (as any fault in it would).
    (pipeline as unknown as { entries: Int32Array }).entries[1] = 0x3fffffff;
    const began = performance.now();
    assert.throws(
      () => pipeline.settle(),
      (error: unknown) =>
        error instanceof ChainWorkerError && /hash worker failed/.test(error.message),
    );
    assert.ok(performance.now() - began < 10_000, "not the 30 s stall");
    pipeline.stop();
  });
});

describe("a range of the ring's entries to write", () => {
  // Entries: bodies (their length) ending at a byte (ends), a wrap (-1), a chain reset (-2).
  const entries = new Int32Array([100, 50, -1, 80, -2, 0, 0, 0]);
  const ends = new Int32Array([4000, 4122, -1, 152, -1, -1, -1, -1]);
  it("ends at the last line of the lap it ends in", () => {
    assert.deepEqual(writeRange(entries, ends, 0, 2), { wraps: false, end: 4122 });
    assert.deepEqual(writeRange(entries, ends, 0, 5), { wraps: true, end: 152 });
    assert.deepEqual(writeRange(entries, ends, 4, 5), { wraps: false, end: -1 });
  });
  it("has no line in the new lap when it stops just after the wrap", () => {
    assert.deepEqual(writeRange(entries, ends, 0, 3), { wraps: true, end: -1 });
    assert.deepEqual(writeRange(entries, ends, 1, 3), { wraps: true, end: -1 });
  });
  it("goes round the entries themselves", () => {
    assert.deepEqual(writeRange(entries, ends, 6, 10), { wraps: false, end: 4122 });
  });
});

function hOfLine(line: string): string {
  return line.slice(-66, -2);
}
