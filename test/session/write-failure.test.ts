// A session log that cannot be written (a full disk, a file gone bad): the first failed write
// breaks the writer; that append, and every later one, throws one SessionWriteError naming
// the file; a failure in the background flush waits for the next call instead of crashing the
// process; close releases the lock; the file keeps every complete line written before. Real
// size-limit failures (prlimit) show a half-written flush cut back and a failed start leaving nothing.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { SessionWriteError } from "../../src/errors.ts";
import { ownerRecord } from "../../src/session/lock-owner.ts";
import { readSession } from "../../src/session/reader.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { runCli } from "../support/cli.ts";
import { startPayload, tempDir } from "../support/session-fixtures.ts";
import { skipWithout } from "../support/system-tools.ts";

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

/**
 * A writer in a child process whose files may not grow past `limitBytes` (RLIMIT_FSIZE, set
 * by util-linux prlimit): a write past it fails in the kernel with EFBIG after writing what
 * fits, as a full disk does (Node ignores SIGXFSZ). The child creates a session in `dir`,
 * then (`stream`) appends a synced prompt and 20 deltas per round until an append throws,
 * printing one JSON line per appended event and one for the error.
 */
function writeUnderLimit(dir: string, limitBytes: number, mode: "start" | "stream") {
  const child = `
    import { SessionWriter } from ${JSON.stringify(import.meta.resolve("../../src/session/writer.ts"))};
    import { startPayload } from ${JSON.stringify(import.meta.resolve("../support/session-fixtures.ts"))};
    const say = (line) => process.stdout.write(JSON.stringify(line) + "\\n");
    let writer;
    try {
      writer = SessionWriter.create(process.argv[1], startPayload);
      say({ path: writer.path, seq: 0, synced: true });
      for (let turn = 0; process.argv[2] === "stream"; turn++) {
        say({ seq: writer.append({ type: "user/message", text: "prompt " + turn }).seq, synced: true });
        for (let i = 0; i < 20; i++) {
          const delta = "delta " + i + " of turn " + turn + " ";
          const chunk = { type: "assistant/chunk", turn, step: 0, block: 0, kind: "text", delta };
          say({ seq: writer.append(chunk).seq, synced: false });
        }
      }
    } catch (error) {
      say({ error: error.name, message: error.message });
      try { writer?.close(); } catch {}
    }`;
  const run = spawnSync(
    "prlimit",
    [
      `--fsize=${limitBytes}`,
      process.execPath,
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      child,
      dir,
      mode,
    ],
    { encoding: "utf8", timeout: 60_000 },
  );
  assert.equal(run.status, 0, `child: ${run.stderr}`);
  const lines = run.stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { lines, error: lines.at(-1)! };
}

/** Every file below `dir`, recursively. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) =>
    statSync(join(dir, name)).isFile(),
  );
}

const needsPrlimit = { skip: skipWithout("prlimit") };

describe("session log: a real write failure (file size limit)", () => {
  it(
    "a full disk mid-stream: the half-written flush is cut back, the log verifies and keeps every synced event",
    needsPrlimit,
    () => {
      const dir = tempDir();
      const limit = 8192;
      const { lines, error } = writeUnderLimit(dir, limit, "stream");
      assert.equal(error.error, "SessionWriteError");
      assert.match(
        String(error.message),
        /^cannot write the session log .*: EFBIG: file too large/,
      );
      const path = String(lines[0]!.path);
      const size = statSync(path).size;
      assert.ok(size < limit, `the torn tail was cut: ${size} bytes of ${limit} remain`);
      assert.ok(readFileSync(path, "utf8").endsWith("\n"));

      const { events, summary } = readSession(path);
      assert.equal(summary.torn, null);
      const logged = new Set(events.map((event) => event.seq));
      const synced = lines.filter((line) => line.synced === true).map((line) => line.seq as number);
      assert.ok(synced.length > 2, "a few rounds were written before the limit");
      // Everything appended up to the last append that returned synced was flushed before the
      // failed write, so all of it must be in the log.
      const lastSynced = Math.max(...synced);
      for (let seq = 0; seq <= lastSynced; seq++) assert.ok(logged.has(seq), `seq ${seq} kept`);
      assert.deepEqual(
        events.map((event) => event.seq),
        events.map((_, index) => index),
        "the log is a dense prefix of what was appended",
      );
      assert.equal(existsSync(`${path}.lock`), false, "close released the lock");
      const verify = runCli(["sessions", "verify", path]);
      assert.equal(verify.status, 0, verify.stderr);
    },
  );

  it("a full disk at session start leaves no empty log and no lock behind", needsPrlimit, () => {
    const dir = tempDir();
    // Room for the lock file (its owner record), not for the session/start line.
    const { lines, error } = writeUnderLimit(dir, ownerRecord().length + 16, "start");
    assert.equal(lines.length, 1, "create threw before returning a writer");
    assert.equal(error.error, "SessionWriteError");
    assert.match(String(error.message), /\.jsonl: EFBIG/);
    assert.deepEqual(filesBelow(dir), []);
  });

  it(
    "a disk too full for the lock names the lock file and leaves nothing behind",
    needsPrlimit,
    () => {
      const dir = tempDir();
      const { lines, error } = writeUnderLimit(dir, 0, "start");
      assert.equal(lines.length, 1, "create threw before returning a writer");
      assert.equal(error.error, "SessionWriteError");
      assert.match(String(error.message), /^cannot write the session log .*\.jsonl\.lock: EFBIG/);
      assert.deepEqual(filesBelow(dir), []);
    },
  );
});
