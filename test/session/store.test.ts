import assert from "node:assert/strict";
import { appendFileSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { describe, it } from "node:test";
import { SessionCorruptError, SessionLockedError } from "../../src/errors.ts";
import { SESSION_SCHEMA_VERSION } from "../../src/session/events.ts";
import { bodyOf, chainHash, hMemberAt, hOf } from "../../src/session/hash-chain.ts";
import { readSession } from "../../src/session/reader.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import {
  editLine,
  sampleTurn,
  startPayload,
  tempDir,
  writeSession,
} from "../support/session-fixtures.ts";

function corruptReason(path: string): { line: number; reason: string } {
  try {
    readSession(path);
  } catch (error) {
    assert.ok(error instanceof SessionCorruptError, `expected SessionCorruptError, got ${error}`);
    assert.equal(error.file, path);
    return { line: error.line, reason: error.reason };
  }
  assert.fail("the damaged log was read without an error");
}

describe("session log: writing and reading", () => {
  it("writes one line per event with dense seq from 0 and a valid hash chain", () => {
    const { path } = writeSession(tempDir());
    const lines = readFileSync(path, "utf8").trimEnd().split("\n");
    assert.equal(lines.length, sampleTurn().length + 1);
    let previous = "";
    lines.forEach((line, index) => {
      const event = JSON.parse(line);
      assert.equal(event.v, SESSION_SCHEMA_VERSION);
      assert.equal(event.seq, index);
      const at = hMemberAt(line);
      assert.ok(at > 0);
      assert.equal(hOf(line, at), chainHash(previous, bodyOf(line, at)));
      previous = hOf(line, at);
    });
    assert.equal(JSON.parse(lines[0]!).type, "session/start");
  });

  it("reads back exactly what was appended", () => {
    const dir = tempDir();
    const writer = SessionWriter.create(dir, startPayload);
    const appended = sampleTurn().map((event) => writer.append(event));
    writer.close();
    const { events, summary } = readSession(writer.path);
    assert.deepEqual(events.slice(1), appended);
    assert.equal(summary.torn, null);
    assert.equal(summary.lastHash, appended.at(-1)!.h);
  });

  it("publishes each appended event in order, after seq and h are set", () => {
    const seen: Array<{ seq: number; h: string }> = [];
    const writer = SessionWriter.create(tempDir(), startPayload, {
      publish: (event) => seen.push({ seq: event.seq, h: event.h }),
    });
    for (const event of sampleTurn()) writer.append(event);
    writer.close();
    assert.deepEqual(
      seen.map((e) => e.seq),
      [...Array(sampleTurn().length + 1).keys()],
    );
    assert.ok(seen.every((e) => /^[0-9a-f]{64}$/.test(e.h)));
  });

  it("keeps publication in append order when a listener appends", () => {
    const order: string[] = [];
    let writer: SessionWriter | undefined;
    writer = SessionWriter.create(tempDir(), startPayload, {
      publish: (event) => {
        order.push(`${event.seq}:${event.type}`);
        if (event.type === "user/message") writer!.append({ type: "turn/start", turn: 0 });
      },
    });
    writer.append({ type: "user/message", text: "hi" });
    writer.append({ type: "turn/end", turn: 0, reason: "completed" });
    writer.close();
    assert.deepEqual(order.slice(1), ["1:user/message", "2:turn/start", "3:turn/end"]);
  });

  it("makes a synced event durable before append returns", () => {
    const writer = SessionWriter.create(tempDir(), startPayload);
    writer.append({ type: "user/message", text: "do not lose me" });
    const onDisk = readFileSync(writer.path, "utf8");
    assert.match(onDisk, /do not lose me/);
    writer.close();
  });

  it("writes unsynced chunks within the sync interval", async () => {
    const writer = SessionWriter.create(tempDir(), startPayload, { syncIntervalMs: 20 });
    writer.append({
      type: "assistant/chunk",
      turn: 0,
      step: 0,
      block: 0,
      kind: "text",
      delta: "x",
    });
    assert.doesNotMatch(readFileSync(writer.path, "utf8"), /assistant\/chunk/);
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.match(readFileSync(writer.path, "utf8"), /assistant\/chunk/);
    writer.close();
  });

  it("replays a snapshot as the session stood at a given seq", () => {
    const { path } = writeSession(tempDir());
    const { events } = readSession(path, { untilSeq: 3 });
    assert.deepEqual(
      events.map((e) => e.seq),
      [0, 1, 2, 3],
    );
  });
});

describe("session log: one writer", () => {
  it("refuses a second writer on the same session", () => {
    const writer = SessionWriter.create(tempDir(), startPayload);
    assert.throws(
      () => SessionWriter.resume(writer.path),
      (error: unknown) =>
        error instanceof SessionLockedError &&
        error.message === `session ${writer.id} is open in process ${process.pid} on ${error.host}`,
    );
    writer.close();
  });

  it("takes over a lock left by a dead process", () => {
    const { path } = writeSession(tempDir());
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 2 ** 22 + 7, host: hostname() }));
    const { writer } = SessionWriter.resume(path);
    writer.append({ type: "user/message", text: "again" });
    writer.close();
    assert.equal(readSession(path).events.at(-1)!.type, "user/message");
  });
});

describe("session log: damage", () => {
  it("reports a torn last line and cuts it on resume with session/recovered", () => {
    const { path } = writeSession(tempDir());
    const intact = statSync(path).size;
    appendFileSync(path, '{"v":1,"seq":11,"ts":"2026-');
    const { summary } = readSession(path);
    assert.deepEqual(summary.torn, { offset: intact, bytes: 27 });
    const { writer } = SessionWriter.resume(path);
    writer.close();
    const { events } = readSession(path);
    const last = events.at(-1)!;
    assert.equal(last.type, "session/recovered");
    assert.equal(last.type === "session/recovered" && last.dropped_bytes, 27);
    assert.equal(last.seq, 11);
  });

  it("keeps a complete last event whose newline was never written", () => {
    const { path } = writeSession(tempDir());
    truncateSync(path, statSync(path).size - 1);
    assert.equal(readSession(path).summary.missingNewline, true);
    const { writer } = SessionWriter.resume(path);
    writer.append({ type: "user/message", text: "next" });
    writer.close();
    assert.equal(readSession(path).events.length, sampleTurn().length + 2);
  });

  it("names invalid JSON mid-file", () => {
    const { path } = writeSession(tempDir());
    editLine(path, 3, (line) => line.slice(0, 20));
    assert.deepEqual(corruptReason(path), { line: 4, reason: "invalid JSON" });
  });

  it("names a broken hash chain", () => {
    const { path } = writeSession(tempDir());
    editLine(path, 2, (line) => line.replace('"turn":0', '"turn":1'));
    assert.deepEqual(corruptReason(path), { line: 3, reason: "hash chain broken" });
  });

  it("names a seq gap", () => {
    const { path } = writeSession(tempDir());
    const lines = readFileSync(path, "utf8").split("\n");
    lines.splice(4, 1);
    writeFileSync(path, lines.join("\n"));
    assert.deepEqual(corruptReason(path), { line: 5, reason: "seq gap: expected 4, found 5" });
  });

  it("names an unknown schema version", () => {
    const { path } = writeSession(tempDir());
    editLine(path, 1, (line) => line.replace(`"v":${SESSION_SCHEMA_VERSION}`, '"v":9'));
    assert.deepEqual(corruptReason(path), { line: 2, reason: "unsupported schema version v=9" });
  });

  it("names an unknown event type even when the chain is intact", () => {
    const dir = tempDir();
    const writer = SessionWriter.create(dir, startPayload);
    writer.append({ type: "mystery/event" } as never);
    writer.close();
    assert.deepEqual(corruptReason(writer.path), {
      line: 2,
      reason: 'unknown event type "mystery/event"',
    });
  });

  it("names a payload that breaks its schema", () => {
    const writer = SessionWriter.create(tempDir(), startPayload);
    writer.append({ type: "turn/end", turn: 0, reason: "exploded" } as never);
    writer.close();
    const { line, reason } = corruptReason(writer.path);
    assert.equal(line, 2);
    assert.match(reason, /^invalid turn\/end: reason: /);
  });

  it("refuses an empty log", () => {
    const path = `${tempDir()}/empty.jsonl`;
    writeFileSync(path, "");
    assert.deepEqual(corruptReason(path), { line: 1, reason: "empty log: no session/start event" });
  });
});
