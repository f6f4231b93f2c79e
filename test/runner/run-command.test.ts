// The command runner's process handling: exit codes and signals, stdout and stderr in arrival
// order, argv without a shell, a timeout or abort killing the whole process tree, and what a
// command leaves running in its group (`sleep 300 &`) stopped before the call returns.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { OutputPolicy } from "../../src/runner/index.ts";
import { runCommand } from "../../src/runner/index.ts";

const policy: OutputPolicy = { maxBytes: 100_000, spillToTemp: false, redactSecrets: true };

/** Exists and is not a zombie (an orphan that exited is not reaped here: pid 1 may not reap). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat[stat.lastIndexOf(")") + 2] !== "Z";
  } catch {
    return true;
  }
}

async function waitGone(pid: number, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

describe("command runner", () => {
  it("reports the exit code and interleaves stdout and stderr in arrival order", async () => {
    const command = "echo out1; echo err1 >&2; echo out2; echo err2 >&2; exit 7";
    const result = await runCommand({ command }, policy);
    assert.equal(result.output, "out1\nerr1\nout2\nerr2\n");
    assert.equal(result.exitCode, 7);
    assert.equal(result.signal, null);
  });

  it("gives the command no lifeline descriptor (fd 3 is the watcher's alone)", async () => {
    const command = "if [ -e /proc/$$/fd/3 ]; then echo open; else echo closed; fi";
    const result = await runCommand({ command }, policy);
    assert.equal(result.output, "closed\n");
  });

  it("runs an argv array without shell parsing", async () => {
    const result = await runCommand({ command: ["printf", "%s|", "a b", "$HOME", "*"] }, policy);
    assert.equal(result.output, "a b|$HOME|*|");
  });

  it("reports death by a signal", async () => {
    const result = await runCommand({ command: "kill -TERM $$" }, policy);
    assert.equal(result.exitCode, null);
    assert.equal(result.signal, "SIGTERM");
  });

  it("kills the whole tree on timeout, grandchild included", async () => {
    const command = "sleep 60 & echo $!; bash -c 'trap \"\" TERM; sleep 60' & wait";
    const result = await runCommand({ command, timeoutMs: 500, killGraceMs: 300 }, policy);
    assert.equal(result.timedOut, true);
    const grandchild = Number(result.output.split("\n")[0]);
    assert.ok(grandchild > 0, result.output);
    assert.ok(await waitGone(grandchild), "grandchild sleeper is gone");
  });

  it("kills the tree when the AbortSignal fires", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await runCommand(
      { command: "sleep 30 & wait", signal: controller.signal },
      policy,
    );
    assert.equal(result.cancelled, true);
    assert.notEqual(result.exitCode, 0);
  });

  it("stops a child left running with `&` before it returns, pipe held or not", async () => {
    for (const command of ["sleep 300 & echo $!", "sleep 300 >/dev/null 2>&1 & echo $!"]) {
      const result = await runCommand({ command }, policy);
      const pid = Number(result.output.trim());
      assert.ok(pid > 0, result.output);
      assert.equal(isAlive(pid), false, `${command}: the sleeper is gone on return`);
      assert.equal(result.exitCode, 0);
      assert.equal(result.cancelled || result.timedOut, false);
    }
  });

  it("SIGKILLs a leftover that ignores SIGTERM after the grace, before it returns", async () => {
    // It exits only once the leftover ignores SIGTERM (the trap is set before `ready`).
    const cwd = mkdtempSync(join(tmpdir(), "cw-leftover-"));
    const leftover = "bash -c 'trap \"\" TERM; : > ready; exec sleep 300' >/dev/null 2>&1 &";
    const command = `${leftover} until [ -e ready ]; do sleep 0.01; done; echo $!`;
    const result = await runCommand({ command, cwd, killGraceMs: 300 }, policy);
    rmSync(cwd, { recursive: true, force: true });
    const pid = Number(result.output.trim());
    assert.equal(isAlive(pid), false, "the TERM-proof leftover is gone on return");
  });

  it("does not wait for a background process holding the pipe after the command exits", async () => {
    const result = await runCommand({ command: "(sleep 5; echo late) & echo early" }, policy);
    assert.equal(result.output, "early\n", "it returned without the late line");
  });
});
