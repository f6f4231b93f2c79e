// The writer lock decides "dead owner" only on proof: a gone pid, a reused pid (another start
// time), a record from before this boot. A live process, another host, or a lock file that names
// nobody is refused in one line; a symlink or FIFO planted as the lock never blocks or is followed.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { SessionLockedError } from "../../src/errors.ts";
import { acquireWriterLock } from "../../src/session/lock.ts";
import { ownerRecord, parseOwner } from "../../src/session/lock-owner.ts";
import { tempDir } from "../support/session-fixtures.ts";

const ID = "01a2b3c4-0000-7000-8000-000000000000";

function logIn(dir = tempDir()): string {
  return join(dir, `${ID}.jsonl`);
}

/** A record in this process's exact shape, with fields changed. */
function recordWith(changes: Record<string, unknown>): string {
  return JSON.stringify({ ...JSON.parse(ownerRecord()), ...changes });
}

function refusal(log: string): string {
  try {
    acquireWriterLock(log, ID)();
  } catch (error) {
    assert.ok(error instanceof SessionLockedError);
    return error.message;
  }
  return "acquired";
}

describe("session lock: who counts as dead", () => {
  it("the lock file holds one whole owner record: pid, host, boot, start time, nonce", () => {
    const log = logIn();
    const release = acquireWriterLock(log, ID);
    const owner = parseOwner(readFileSync(`${log}.lock`, "utf8"));
    assert.equal(owner?.pid, process.pid);
    assert.equal(owner?.host, hostname());
    assert.match(owner?.start ?? "", /^\d+$/);
    assert.match(owner?.nonce ?? "", /^[0-9a-f]{16}$/);
    release();
    assert.equal(existsSync(`${log}.lock`), false);
  });

  it("a live owner is refused with the one-line message", () => {
    const log = logIn();
    const sleeper = spawn("sleep", ["30"], { stdio: "ignore" });
    const pid = sleeper.pid!;
    try {
      const start = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19];
      writeFileSync(`${log}.lock`, recordWith({ pid, start }));
      assert.equal(refusal(log), `session ${ID} is open in process ${pid} on ${hostname()}`);
    } finally {
      sleeper.kill("SIGKILL");
    }
  });

  it("a reused pid (alive, but started at another time) is a dead owner: taken over", () => {
    const log = logIn();
    // Our parent is alive; a record naming it with another start time is a previous process.
    writeFileSync(`${log}.lock`, recordWith({ pid: process.ppid, start: "1" }));
    assert.equal(refusal(log), "acquired");
  });

  it("a gone pid is dead; a record from another boot is dead", () => {
    const gone = logIn();
    writeFileSync(`${gone}.lock`, recordWith({ pid: 2 ** 22 + 7 }));
    assert.equal(refusal(gone), "acquired");
    const rebooted = logIn();
    writeFileSync(`${rebooted}.lock`, recordWith({ pid: process.ppid, boot: "another-boot" }));
    assert.equal(refusal(rebooted), "acquired");
  });

  it("another host is never proven dead", () => {
    const log = logIn();
    writeFileSync(`${log}.lock`, recordWith({ pid: 2 ** 22 + 7, host: "elsewhere" }));
    assert.equal(refusal(log), `session ${ID} is open in process ${2 ** 22 + 7} on elsewhere`);
  });

  it("a lock naming nobody is refused, naming the file; one from before this boot is taken over", () => {
    const log = logIn();
    writeFileSync(`${log}.lock`, "");
    assert.equal(
      refusal(log),
      `session ${ID} is locked by ${log}.lock, which names no owner codewhale can check; remove it if no codewhale process has the session open`,
    );
    utimesSync(`${log}.lock`, new Date(0), new Date(0));
    assert.equal(refusal(log), "acquired");
  });

  it("a symlink or a FIFO planted as the lock is refused, not followed and not waited on", () => {
    const dir = tempDir();
    const target = join(dir, "victim");
    writeFileSync(target, recordWith({ pid: 2 ** 22 + 7 }));
    const linked = logIn(dir);
    symlinkSync(target, `${linked}.lock`);
    assert.match(refusal(linked), /names no owner/);
    assert.equal(readFileSync(target, "utf8").includes(String(2 ** 22 + 7)), true, "untouched");
    const fifo = logIn();
    spawnSync("mkfifo", [`${fifo}.lock`]);
    assert.match(refusal(fifo), /names no owner/);
  });
});
