// The writer under volume: several pending buffers' worth of lines, a synced append that
// returns only with every earlier line on disk, lines larger than the pending buffer (the
// previous h then comes from the chain, not the buffer), and resuming a large log.
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { describe, it } from "node:test";
import { readSession } from "../../src/session/reader.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { startPayload, tempDir } from "../support/session-fixtures.ts";

function chunk(delta: string) {
  return { type: "assistant/chunk", turn: 1, step: 1, block: 0, kind: "text", delta } as const;
}

/** Enough chunk text to fill the 1 MiB buffer several times over. */
function appendMegabytes(writer: SessionWriter, megabytes: number): number {
  const delta = "x".repeat(200);
  const count = Math.ceil((megabytes * 1024 * 1024) / 300);
  for (let i = 0; i < count; i++) writer.append(chunk(`${i}:${delta}`));
  return count;
}

describe("session log: volume", () => {
  it("writes several buffers' worth of lines with an intact chain", () => {
    const writer = SessionWriter.create(tempDir(), startPayload);
    const count = appendMegabytes(writer, 5);
    writer.close();
    const { events } = readSession(writer.path);
    assert.equal(events.length, count + 1);
    assert.equal(events.at(-1)?.seq, count);
    const last = events.at(-1);
    assert.ok(last?.type === "assistant/chunk" && last.delta.startsWith(`${count - 1}:`));
  });

  it("a synced append returns with every earlier line on disk", () => {
    const writer = SessionWriter.create(tempDir(), startPayload);
    const count = appendMegabytes(writer, 3);
    writer.append({ type: "user/message", text: "durable now" });
    const onDisk = readFileSync(writer.path, "utf8");
    const lines = onDisk.trimEnd().split("\n");
    assert.equal(lines.length, count + 2, "every line is on disk, in order");
    assert.match(lines.at(-1) as string, /durable now/);
    // What is on disk reads back whole, and closing adds nothing.
    const size = statSync(writer.path).size;
    writer.close();
    assert.equal(readSession(writer.path).events.length, count + 2);
    assert.equal(statSync(writer.path).size, size);
  });

  it("keeps the chain across a line larger than the buffer", () => {
    const writer = SessionWriter.create(tempDir(), startPayload);
    writer.append(chunk("before"));
    writer.append(chunk("y".repeat(1_200_000)));
    writer.append(chunk("after"));
    appendMegabytes(writer, 2);
    writer.close();
    const { events } = readSession(writer.path);
    const deltas = events.flatMap((e) => (e.type === "assistant/chunk" ? [e.delta] : []));
    assert.equal(deltas[0], "before");
    assert.equal(deltas[1]?.length, 1_200_000);
    assert.equal(deltas[2], "after");
  });

  it("resumes a large log and appends where it ended", async () => {
    const first = SessionWriter.create(tempDir(), startPayload);
    const count = appendMegabytes(first, 2);
    first.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { writer } = SessionWriter.resume(first.path);
    writer.append({ type: "user/message", text: "again" });
    writer.close();
    const { events } = readSession(first.path);
    assert.equal(events.length, count + 2);
    assert.equal(events.at(-1)?.type, "user/message");
  });
});
