// A log whose tail is damaged after valid lines opens read-only as far as it is valid, naming
// where the damage starts; repairLog cuts it there under the writer lock, keeping the cut bytes
// in a side file, and records session/recovered; a declined or locked repair changes nothing.
import assert from "node:assert/strict";
import { appendFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, it } from "node:test";
import { SessionCorruptError, SessionLockedError } from "../../src/errors.ts";
import { readSession } from "../../src/session/reader.ts";
import { planCut, repairLog } from "../../src/session/repair.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { editLine, tempDir, writeSession } from "../support/session-fixtures.ts";

const GARBAGE = '{"not":"an event"}\n';

describe("reading a log with a damaged tail", () => {
  it("a garbage last line: the strict read throws, the tolerant one stops before it", () => {
    const { path } = writeSession(tempDir());
    const intact = statSync(path).size;
    appendFileSync(path, GARBAGE);
    assert.throws(() => readSession(path), SessionCorruptError);
    const { events, summary } = readSession(path, { tolerateDamagedTail: true });
    assert.equal(events.length, 11);
    assert.deepEqual(summary.damaged, {
      line: 12,
      reason: "unsupported schema version v=undefined",
      offset: intact,
      bytes: GARBAGE.length,
      afterSeq: 10,
    });
    assert.equal(summary.validBytes, intact);
  });

  it("a line that breaks the chain, with valid-looking lines after it: all of it is the tail", () => {
    const { path } = writeSession(tempDir());
    editLine(path, 8, (line) => line.replace('"ls"', '"rm"'));
    const lines = readFileSync(path, "utf8").split("\n");
    const offset = Buffer.byteLength(`${lines.slice(0, 8).join("\n")}\n`);
    const { events, summary } = readSession(path, { tolerateDamagedTail: true });
    assert.deepEqual(
      events.map((event) => event.seq),
      [0, 1, 2, 3, 4, 5, 6, 7],
    );
    assert.equal(summary.damaged?.reason, "hash chain broken");
    assert.equal(summary.damaged?.offset, offset);
    assert.equal(summary.damaged?.bytes, statSync(path).size - offset);
    assert.equal(planCut(path).plan?.lines, 3);
  });

  it("a log bad from its first line is not opened, even read-only", () => {
    const { path } = writeSession(tempDir());
    editLine(path, 0, () => "garbage");
    assert.throws(
      () => readSession(path, { tolerateDamagedTail: true }),
      (error: unknown) => error instanceof SessionCorruptError && error.line === 1,
    );
  });
});

describe("repairLog", () => {
  it("cuts at the last good line, keeps the cut bytes beside the log, records session/recovered", async () => {
    const { path } = writeSession(tempDir());
    const before = readFileSync(path);
    appendFileSync(path, `${GARBAGE}{"torn":`);
    const tail = readFileSync(path).subarray(before.length);
    let shown = -1;
    const outcome = await repairLog(path, async (plan) => {
      shown = plan.lines;
      return true;
    });
    assert.equal(shown, 2);
    assert.equal(outcome.kind, "cut");
    const sideFile = outcome.kind === "cut" ? outcome.sideFile : "";
    assert.equal(dirname(sideFile), dirname(path));
    assert.match(basename(sideFile), /\.jsonl\.cut-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    assert.deepEqual(readFileSync(sideFile), tail, "the side file holds exactly the cut bytes");
    assert.equal(statSync(sideFile).mode & 0o777, 0o600);
    const { events } = readSession(path);
    assert.deepEqual(readFileSync(path).subarray(0, before.length), before, "the good lines stay");
    const last = events.at(-1)!;
    assert.equal(last.type, "session/recovered");
    assert.equal(last.type === "session/recovered" && last.dropped_bytes, tail.length);
    assert.equal(last.type === "session/recovered" && last.kept_in, basename(sideFile));
    assert.deepEqual(
      readdirSync(dirname(path)).filter((name) => name.includes(".lock")),
      [],
      "the lock is released",
    );
    assert.deepEqual(await repairLog(path, async () => true), { kind: "intact", events: 12 });
  });

  it("declined: the log is byte for byte unchanged and no side file is written", async () => {
    const { path } = writeSession(tempDir());
    appendFileSync(path, GARBAGE);
    const before = readFileSync(path);
    const outcome = await repairLog(path, async () => false);
    assert.equal(outcome.kind, "declined");
    assert.deepEqual(readFileSync(path), before);
    assert.deepEqual(readdirSync(dirname(path)), [basename(path)]);
  });

  it("refused while another writer has the session open, before asking anything", async () => {
    const dir = tempDir();
    const writer = SessionWriter.create(dir, {
      cwd: "/work/project",
      version: "0.0.0-test",
      provider: "anthropic",
      model: "m",
      config_fingerprint: "0".repeat(64),
    });
    let asked = false;
    await assert.rejects(
      repairLog(writer.path, async () => {
        asked = true;
        return true;
      }),
      SessionLockedError,
    );
    assert.equal(asked, false);
    writer.close();
    assert.deepEqual(readdirSync(join(dirname(writer.path))), [basename(writer.path)]);
  });
});
