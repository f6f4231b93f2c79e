// A session log that cannot be written (a full disk, a file gone bad): the first failed write
// breaks the writer; that append, and every later one, throws one SessionWriteError naming
// the file; a failure in the background flush waits for the next call instead of crashing the
// process; close releases the lock; the file keeps every complete line written before.
import assert from "node:assert/strict";
import { closeSync, existsSync } from "node:fs";
import { describe, it } from "node:test";
import { SessionWriteError } from "../../src/errors.ts";
import { readSession } from "../../src/session/reader.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { startPayload, tempDir } from "../support/session-fixtures.ts";

/** Closes the writer's file underneath it, so its next write fails in the kernel (EBADF). */
function breakFile(writer: SessionWriter): void {
  closeSync((writer as unknown as { fd: number }).fd);
}

describe("session log: a write that fails", () => {
  it("throws one SessionWriteError naming the file, then refuses every append", () => {
    const writer = SessionWriter.create(tempDir(), startPayload);
    writer.append({ type: "user/message", text: "kept" });
    breakFile(writer);
    assert.throws(
      () => writer.append({ type: "turn/end", turn: 0, reason: "completed" }),
      (e: unknown) => e instanceof SessionWriteError && e.file === writer.path,
    );
    assert.throws(() => writer.append({ type: "turn/start", turn: 1 }), SessionWriteError);
    assert.throws(() => writer.close(), /cannot write the session log .*EBADF/);
    assert.equal(existsSync(`${writer.path}.lock`), false, "the lock is released");
    const { events } = readSession(writer.path);
    assert.deepEqual(
      events.map((e) => e.type),
      ["session/start", "user/message"],
    );
  });

  it("a failure in the background flush is thrown by the next call, not by the event loop", async () => {
    const writer = SessionWriter.create(tempDir(), startPayload, { syncIntervalMs: 5 });
    writer.append({
      type: "assistant/chunk",
      turn: 0,
      step: 0,
      block: 0,
      kind: "text",
      delta: "a",
    });
    breakFile(writer);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.throws(
      () => writer.appendDelta({ turn: 0, step: 0, block: 0, kind: "text", delta: "b" }),
      SessionWriteError,
    );
    assert.throws(() => writer.close(), SessionWriteError);
    assert.equal(existsSync(`${writer.path}.lock`), false);
  });
});
