// Eight processes resume one session log at the same moment, 100 rounds, through the real writer
// and lock; before every 12th round a process dies holding the lock (SIGKILL), so all eight race
// to take a dead owner's lock over. (The lock before cfc3ecf corrupted the log by round 40 in
// each of two runs of this test.) The log always verifies (dense seq, chain intact), every
// append is where its process put it, and every refusal is the one-line SessionLockedError.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import { before, describe, it } from "node:test";
import { readSession } from "../../src/session/reader.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { bundleChild } from "../support/bundle-child.ts";
import { tempDir, writeSession } from "../support/session-fixtures.ts";

const SOURCE = new URL("../support/lock-resumer.ts", import.meta.url);
const RESUMERS = 8;
const ROUNDS = Number(process.env.CODEWHALE_LOCK_ROUNDS ?? 100);
const CRASH_EVERY = 12;
let childScript = "";

interface Report {
  name: string;
  /** The seqs the process appended, with the prompt text it gave each. */
  appended: Array<{ seq: number; text: string }>;
  refused: string[];
  other: string[];
}

/** A resumer child: `next()` starts one round and resolves with its report. */
function startResumer(path: string, name: string) {
  const child: ChildProcess = spawn(process.execPath, [childScript, "resume", path, name], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const waiting: Array<{ resolve: (report: Report) => void; reject: (error: Error) => void }> = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    waiting.shift()?.resolve(JSON.parse(line) as Report);
  });
  child.on("exit", (code, signal) => {
    for (const round of waiting.splice(0))
      round.reject(new Error(`${name} exited: ${code ?? signal}`));
  });
  return {
    next(round: number): Promise<Report> {
      const report = new Promise<Report>((resolve, reject) => waiting.push({ resolve, reject }));
      child.stdin!.write(`round ${round}\n`);
      return report;
    },
    stop: () => child.kill(),
  };
}

/** A process that takes the lock, appends, and is SIGKILLed holding it. */
function crashHoldingLock(
  path: string,
  name: string,
): Promise<{ out: string; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, "crash", path, name], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (data: Buffer) => {
      out += data.toString();
    });
    child.on("error", reject);
    child.on("close", (_code, signal) => resolve({ out, signal }));
  });
}

interface Rounds {
  reports: Report[];
  crashes: number;
  /** Crash rounds in which a resumer took the dead owner's lock over. */
  takenOver: number;
}

/** Every round: all resumers at once; before every CRASH_EVERY-th, an owner dies holding it. */
async function runRounds(path: string, resumers: Array<ReturnType<typeof startResumer>>) {
  const rounds: Rounds = { reports: [], crashes: 0, takenOver: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const crashRound = round % CRASH_EVERY === CRASH_EVERY - 1;
    if (crashRound) {
      const crash = await crashHoldingLock(path, `c${round}`);
      assert.deepEqual(crash, { out: "holding\n", signal: "SIGKILL" }, "died holding the lock");
      assert.ok(existsSync(`${path}.lock`), "the dead owner's lock is left");
      rounds.crashes++;
    }
    const results = await Promise.all(resumers.map((resumer) => resumer.next(round)));
    if (crashRound && results.some((report) => report.appended.length > 0)) rounds.takenOver++;
    rounds.reports.push(...results);
    // Each round's log must verify: a second writer would break it at once.
    const { events } = readSession(path);
    assert.equal(events.at(-1)?.type, "user/message", `round ${round}: the log ends whole`);
  }
  return rounds;
}

describe("session lock under contention", () => {
  before(() => {
    // Bundled once so that each child starts in milliseconds.
    childScript = bundleChild(SOURCE);
  });

  it(`${RESUMERS} concurrent resumers × ${ROUNDS} rounds, a dead owner's lock every ${CRASH_EVERY}: 0 corrupt logs`, {
    timeout: 300_000,
  }, async () => {
    const { path, id } = writeSession(tempDir());
    const resumers = Array.from({ length: RESUMERS }, (_, index) =>
      startResumer(path, `w${index}`),
    );
    let run: Rounds;
    try {
      run = await runRounds(path, resumers);
    } finally {
      for (const resumer of resumers) resumer.stop();
    }
    const { reports, crashes, takenOver } = run;

    const { events } = readSession(path);
    assert.deepEqual(
      events.map((event) => event.seq),
      events.map((_, index) => index),
    );
    const prompts = new Map(
      events.map((event) => [event.seq, event.type === "user/message" ? event.text : null]),
    );
    let appended = 0;
    let refused = 0;
    for (const report of reports) {
      assert.deepEqual(report.other, [], `${report.name}: only the lock may refuse a resume`);
      for (const { seq, text } of report.appended) {
        assert.equal(prompts.get(seq), text, `${report.name}: seq ${seq} holds its own prompt`);
      }
      for (const message of report.refused) {
        assert.match(message, new RegExp(`^session ${id} is open in process \\d+ on \\S+$`));
      }
      appended += report.appended.length;
      refused += report.refused.length;
    }
    assert.equal(appended + refused, RESUMERS * ROUNDS, "every attempt appended or was refused");
    assert.ok(appended >= ROUNDS, "someone resumed in every round");
    assert.equal(takenOver, crashes, "every dead owner's lock was taken over in its round");
    assert.equal(existsSync(`${path}.lock`), false, "the last writer released the lock");
    const left = readdirSync(dirname(path)).filter((name) => name.includes(".lock"));
    assert.deepEqual(left, [], "no claim or temporary file is left beside the log");
    process.stdout.write(
      `# ${appended} resumes appended, ${refused} refused, ${crashes} dead owners taken over; ${events.length} events verify\n`,
    );
    SessionWriter.resume(path).writer.close();
  });
});
