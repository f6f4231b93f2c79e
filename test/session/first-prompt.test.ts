// A log never exists without its first prompt: a child starting sessions one after another is
// SIGKILLed at random moments, and every log left on disk starts with its header and then the
// user's prompt (the two are written and synced together); there is no other kind of log.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { before, describe, it } from "node:test";
import { listSessionFiles } from "../../src/session/paths.ts";
import { readSession } from "../../src/session/reader.ts";
import { bundleChild } from "../support/bundle-child.ts";
import { tempDir } from "../support/session-fixtures.ts";

const SOURCE = new URL("../support/first-prompt-writer.ts", import.meta.url);
const KILLS = 15;
let childScript = "";

/** Runs the child in `dir` and SIGKILLs it `delayMs` after it is ready. */
function runUntilKilled(dir: string, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, dir], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.stdout.once("data", () => setTimeout(() => child.kill("SIGKILL"), delayMs));
    child.on("error", reject);
    child.on("exit", (_code, signal) => {
      if (signal !== "SIGKILL") reject(new Error(`child ended without being killed (${signal})`));
      else resolve();
    });
  });
}

describe("a new session log and its first prompt", () => {
  before(() => {
    childScript = bundleChild(SOURCE);
  });

  it(`is on disk with its header and prompt or not at all, after ${KILLS} SIGKILLs`, {
    timeout: 240_000,
  }, async () => {
    const dir = tempDir();
    for (let kill = 0; kill < KILLS; kill++) {
      await runUntilKilled(dir, 20 + Math.floor(Math.random() * 200));
    }
    const logs = listSessionFiles(dir);
    assert.ok(logs.length > 0, "some sessions were written");
    for (const path of logs) {
      const { events } = readSession(path);
      const first = events.slice(0, 2).map((event) => event.type);
      assert.deepEqual(first, ["session/start", "user/message"], path);
    }
    process.stdout.write(`# ${logs.length} logs, each with its prompt\n`);
  });
});
