// The spill directory's last-chance cleanup (shutdown.ts) in a real child process: a process
// that dies of an uncaught error, while a spill file is open, still removes its directory; one
// that keeps its spill on purpose does not; and the start-up sweep of what dead processes left
// (spill directories, background logs included, and the old `codewhale-bg-*` ones).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { sweepStaleSpillDirs } from "../../src/runner/spill.ts";

const spillModule = new URL("../../src/runner/spill.ts", import.meta.url).href;

/** Runs a child that spills, then throws; returns its exit status and stderr. */
function spillThenCrash(tmp: string, keep: boolean) {
  const script = `
    const { createSpillScope } = await import(${JSON.stringify(spillModule)});
    const scope = createSpillScope("crash", { tmpDir: ${JSON.stringify(tmp)}, keep: ${keep} });
    const file = await scope.createFile();
    await file.write(Buffer.from("partial output\\n"));
    setTimeout(() => { throw new Error("boom"); }, 10);
  `;
  return spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
  });
}

describe("spill cleanup at shutdown", () => {
  it("removes the spill directory when the process dies of an uncaught error", () => {
    const tmp = mkdtempSync(join(tmpdir(), "cw-spill-crash-"));
    try {
      const run = spillThenCrash(tmp, false);
      assert.equal(run.status, 1);
      assert.match(run.stderr, /Error: boom/);
      assert.deepEqual(readdirSync(tmp), []);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("leaves a kept spill in place (the control)", () => {
    const tmp = mkdtempSync(join(tmpdir(), "cw-spill-crash-"));
    try {
      const run = spillThenCrash(tmp, true);
      assert.equal(run.status, 1);
      assert.equal(readdirSync(tmp).length, 1);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("sweeps the spill, sandbox, file-clock and old background-log directories of dead processes, not live ones", () => {
    const tmp = mkdtempSync(join(tmpdir(), "cw-sweep-"));
    try {
      const dead = spawnSync("true").pid;
      const live = process.ppid;
      const names = [
        `codewhale-spill-${dead}-s1`,
        `codewhale-bg-${dead}-AbC123`,
        `codewhale-empty-${dead}-Qw1234`,
        `codewhale-seccomp-${dead}-Er5678`,
        `codewhale-clock-${dead}-Cl4321`,
        `codewhale-spill-${live}-s2`,
        `codewhale-empty-${live}-Ty9012`,
        `codewhale-bg-${live}-XyZ789`,
        `codewhale-spill-${process.pid}-mine`,
        "unrelated-dir",
      ];
      for (const name of names) mkdirSync(join(tmp, name));
      const removed = sweepStaleSpillDirs(tmp).map((path) => path.slice(tmp.length + 1));
      assert.deepEqual(removed.sort(), names.slice(0, 5).sort());
      assert.deepEqual(readdirSync(tmp).sort(), names.slice(5).sort());
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
