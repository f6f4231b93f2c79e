// Replay of large logs hashes on a worker thread while the main thread parses; the outcome
// must be the same as the sequential reader's: same events, same first problem.
import assert from "node:assert/strict";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { describe, it } from "node:test";
import { SessionCorruptError } from "../../src/errors.ts";
import { checkChainInWorker } from "../../src/session/chain-worker.ts";
import { deriveMessages } from "../../src/session/derive.ts";
import { readSession } from "../../src/session/reader.ts";
import { deriveFromLog, replaySession } from "../../src/session/replay.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import {
  chunkEvent,
  editLine,
  resultEvent,
  sampleTurn,
  startPayload,
  tempDir,
} from "../support/session-fixtures.ts";

/** A log above the parallel threshold (8 MB): 3,000 turns of the sample. */
function bigLog(): string {
  const writer = SessionWriter.create(tempDir(), startPayload);
  for (let turn = 0; turn < 3000; turn++) {
    for (const event of sampleTurn(turn)) writer.append(event);
    for (let i = 0; i < 20; i++) {
      writer.append({
        type: "assistant/chunk",
        turn,
        step: 1,
        block: 0,
        kind: "text",
        delta: "x".repeat(120),
      });
    }
  }
  writer.close();
  return writer.path;
}

const path = bigLog();

describe("parallel replay", () => {
  it("replays a large log with the same events and history as the sequential reader", async () => {
    const sequential = readSession(path);
    let count = 0;
    const summary = await replaySession(path, () => count++);
    assert.equal(count, sequential.events.length);
    assert.equal(summary.lastHash, sequential.summary.lastHash);
    const { messages } = await deriveFromLog(path);
    assert.deepEqual(messages, deriveMessages(sequential.events));
  });

  it("derives a snapshot as the session stood at a seq", async () => {
    const { messages } = await deriveFromLog(path, { untilSeq: 30 });
    assert.deepEqual(messages, deriveMessages(readSession(path, { untilSeq: 30 }).events));
  });

  it("names the line of a broken hash found by the worker", async () => {
    const copy = `${tempDir()}/copy.jsonl`;
    const { copyFileSync } = await import("node:fs");
    copyFileSync(path, copy);
    editLine(copy, 40_000, (line) => line.replace('"ts":"2', '"ts":"3'));
    assert.deepEqual(await checkChainInWorker(copy), { lines: 40_001, brokenLine: 40_001 });
    await assert.rejects(
      replaySession(copy, () => undefined),
      (error: unknown) => {
        return (
          error instanceof SessionCorruptError &&
          error.line === 40_001 &&
          error.reason === "hash chain broken"
        );
      },
    );
  });

  it("splits a large log's chain between two workers and still names the first broken line", async () => {
    const { copyFileSync } = await import("node:fs");
    const total = readFileSync(path, "utf8").split("\n").length - 1;
    assert.deepEqual(await checkChainInWorker(path, undefined, 1), {
      lines: total,
      brokenLine: null,
    });
    // Broken in the second half, and the line just before the split (whose h
    // the second half starts from) with its h replaced: each named as one worker names it.
    const half = Math.floor(statSync(path).size / 2);
    const beforeSplit =
      readFileSync(path)
        .subarray(0, half + 72)
        .toString("latin1")
        .split("\n").length - 1;
    for (const index of [total - 100, beforeSplit]) {
      const copy = `${tempDir()}/copy.jsonl`;
      copyFileSync(path, copy);
      editLine(copy, index, (line) =>
        index === beforeSplit
          ? line.replace(/"h":"[0-9a-f]{64}"/, `"h":"${"0".repeat(64)}"`)
          : line.replace('"ts":"2', '"ts":"3'),
      );
      const expected = { lines: index + 1, brokenLine: index + 1 };
      assert.deepEqual(await checkChainInWorker(copy, undefined, 1), expected);
    }
  });

  it("reports the earlier of a worker's and the parser's problems", async () => {
    const copy = `${tempDir()}/copy.jsonl`;
    const { copyFileSync } = await import("node:fs");
    copyFileSync(path, copy);
    editLine(copy, 50_000, (line) => line.replace('"v":1', '"v":2'));
    editLine(copy, 20_000, (line) => line.replace('"ts":"2', '"ts":"3'));
    await assert.rejects(
      replaySession(copy, () => undefined),
      { line: 20_001 },
    );
  });

  it("checks multibyte, over-long and undecodable lines as the sequential reader does", async () => {
    const writer = SessionWriter.create(tempDir(), startPayload);
    // One line longer than the worker's 4 MiB read buffer, then enough to pass 8 MB.
    writer.append(resultEvent("t", "é🙂 ".repeat(700_000)));
    for (let i = 0; i < 40_000; i++) {
      writer.append(chunkEvent(`ü${i}`));
    }
    writer.append({ type: "user/message", text: "bad \uFFFD byte" });
    writer.close();
    // The last line's U+FFFD becomes a raw 0xFF byte: its h is what the reader computes after
    // decoding, so both paths must accept it.
    const bytes = readFileSync(writer.path);
    const at = bytes.lastIndexOf(Buffer.from("\uFFFD", "utf8"));
    writeFileSync(
      writer.path,
      Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at + 3)]),
    );
    const sequential = readSession(writer.path);
    assert.equal(sequential.events.at(-1)?.type, "user/message");
    const lines = sequential.events.length;
    assert.deepEqual(await checkChainInWorker(writer.path), { lines, brokenLine: null });
    assert.equal((await replaySession(writer.path, () => undefined)).events, lines);
    // One byte of a multibyte character changed inside the long line breaks that line.
    const edited = readFileSync(writer.path);
    edited[edited.indexOf(Buffer.from("é", "utf8")) + 1] = 0xa8; // é -> è
    writeFileSync(writer.path, edited);
    assert.deepEqual(await checkChainInWorker(writer.path), { lines: 2, brokenLine: 2 });
  });
});
