// A child appending events is SIGKILLed at random moments, 20 times, on one session: every time
// the log opens, verifies, resumes, and holds every event up to the last sync point. Each run
// resumes and re-reads the whole log, which every run makes longer, so the count is the cost;
// every other run is killed no sooner than its first sync, so a starved child still tests it.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { before, describe, it } from "node:test";
import { readSession } from "../../src/session/reader.ts";
import { bundleChild } from "../support/bundle-child.ts";
import { tempDir } from "../support/session-fixtures.ts";

const SOURCE = new URL("../support/crash-writer.ts", import.meta.url);
let childScript = "";
const KILLS = 20;

interface Run {
  path: string;
  lastSynced: { seq: number; h: string } | null;
}

/**
 * Runs the child and SIGKILLs it `delayMs` after it is ready; with `afterSync`, not before its
 * first synced append (a loaded machine can starve a child for longer than the delay).
 */
function runUntilKilled(
  mode: "create" | "resume",
  target: string,
  delayMs: number,
  afterSync: boolean,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [childScript, mode, target], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const run: Run = { path: "", lastSynced: null };
    let due = false;
    const kill = () => {
      due = true;
      if (!afterSync || run.lastSynced) child.kill("SIGKILL");
    };
    let buffered = "";
    child.stdout!.on("data", (data: Buffer) => {
      buffered += data.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        const [word, a, b] = line.split(" ");
        if (word === "ready") {
          run.path = a!;
          setTimeout(kill, delayMs);
        } else if (word === "synced") {
          run.lastSynced = { seq: Number(a), h: b! };
          if (due) kill();
        }
      }
    });
    child.on("error", reject);
    child.on("exit", (_code, signal) => {
      if (signal !== "SIGKILL") reject(new Error(`child ended without being killed (${signal})`));
      else resolve(run);
    });
  });
}

describe("session log crash safety", () => {
  before(() => {
    // Bundled once so that each of the children starts in milliseconds.
    childScript = bundleChild(SOURCE);
  });

  it(`survives ${KILLS} SIGKILLs mid-append, losing nothing synced`, {
    timeout: 240_000,
  }, async () => {
    const kills = KILLS;
    let path = "";
    let synced = 0;
    for (let kill = 0; kill < kills; kill++) {
      const delay = 5 + Math.floor(Math.random() * 60);
      const mode = kill === 0 ? "create" : "resume";
      // Every other run is killed at a random moment; the rest not before they synced once.
      const run = await runUntilKilled(mode, path || tempDir(), delay, kill % 2 === 1);
      path = run.path;
      const { events } = readSession(path);
      if (run.lastSynced) {
        synced++;
        const event = events[run.lastSynced.seq];
        assert.ok(event, `kill ${kill}: synced event ${run.lastSynced.seq} is missing`);
        assert.equal(event.h, run.lastSynced.h, `kill ${kill}: synced event changed`);
      }
    }
    const { events, summary } = readSession(path);
    const recovered = events.filter((e) => e.type === "session/recovered").length;
    process.stdout.write(`# ${synced} runs reached a sync point; ${recovered} torn tails cut\n`);
    assert.ok(synced >= kills / 2, `only ${synced} runs reached a sync point`);
    // Every run that reached a sync point had appended at least one prompt that survived
    // (how many events a run writes before its kill depends on the machine's load).
    const prompts = events.filter((e) => e.type === "user/message").length;
    assert.ok(prompts >= synced, `${prompts} prompts for ${synced} synced runs`);
    assert.equal(summary.events, events.length);
  });
});
