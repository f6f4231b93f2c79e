// End to end: `codewhale exec` stopped by SIGINT, SIGTERM or SIGHUP. The first signal cancels
// the running turn gracefully (exit 130, one stderr line, turn/end cancelled, every printed line
// in the log, no lock or spill directory left); a second exits at once; a stdin session ends.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readSession } from "../../src/session/reader.ts";
import { runCli } from "../support/cli.ts";
import {
  type ExecEnv,
  execEnv,
  jsonLines,
  MODEL_OF,
  type Spawned,
  spawnCli,
  waitFor,
} from "../support/exec-harness.ts";
import { slow, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });

const longText = "The quick brown fox jumps over the lazy dog. ".repeat(10);
const streamJson = ["--model", MODEL_OF.anthropic, "--output-format", "stream-json"];
const stdinSession = [...streamJson, "--input-format", "stream-json"];

/** An exec streaming a slow answer as stream-json, once more than `deltas` deltas arrived. */
async function slowStreamStarted(setup: ExecEnv, deltas: number): Promise<Spawned> {
  mock.enqueue(slow({ blocks: [{ kind: "text", text: longText }] }, 20));
  const run = spawnCli(["exec", ...streamJson, "write"], setup);
  await waitFor(() => run.stdout().split('"message_delta"').length > deltas);
  return run;
}

function logPathOf(stdout: string): string {
  return String(jsonLines(stdout)[0]!.log_path);
}

/** The session is closed cleanly: no lock, and `sessions verify` passes. */
function assertClosedCleanly(setup: ExecEnv, stdout: string): void {
  const path = logPathOf(stdout);
  assert.equal(existsSync(`${path}.lock`), false, "the lock is released");
  const id = String(jsonLines(stdout)[0]!.session_id);
  const verify = runCli(["sessions", "verify", id], { env: setup.env, cwd: setup.workspace });
  assert.equal(verify.status, 0, verify.stderr);
}

/** Every line printed with a seq is the log's event of that seq (deltas: the same text). */
function assertStdoutInLog(stdout: string): void {
  const events = readSession(logPathOf(stdout)).events;
  const printed = jsonLines(stdout).filter((line) => typeof line.seq === "number");
  assert.ok(printed.length > 0);
  for (const line of printed) {
    const event = events[line.seq as number];
    assert.ok(event, `seq ${line.seq} (${line.type}) is in the log`);
    if (line.type === "message_delta") {
      assert.ok(event.type === "assistant/chunk" && event.delta === line.text);
    } else assert.equal(event.type, line.type);
  }
}

function turnEnds(stdout: string): unknown[] {
  return readSession(logPathOf(stdout))
    .events.filter((event) => event.type === "turn/end")
    .map((event) => event.type === "turn/end" && event.reason);
}

describe("a signal during a streamed turn", () => {
  for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"] as const) {
    it(`${signal} cancels the turn: exit 130, one line, turn/end cancelled, every printed seq logged, no lock`, async () => {
      const setup = execEnv(mock);
      const run = await slowStreamStarted(setup, 3);
      run.child.kill(signal);
      const done = await run.done;
      assert.equal(done.status, 130, done.stderr);
      assert.equal(done.signal, null, "exited, not killed by the signal");
      assert.equal(done.stderr, "codewhale: cancelled\n");
      const result = jsonLines(done.stdout).at(-1)!;
      assert.deepEqual(
        [result.type, result.reason, result.exit_code],
        ["result", "cancelled", 130],
      );
      assert.deepEqual(turnEnds(done.stdout), ["cancelled"]);
      assertStdoutInLog(done.stdout);
      assertClosedCleanly(setup, done.stdout);
    });
  }
});

describe("a signal while a command runs", () => {
  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    it(`${signal}: the command is stopped, the turn cancelled (130) and its spill directory removed at exit`, async () => {
      const base = execEnv(mock, "[output]\nmax_bytes = 2000\n");
      const tmp = mkdtempSync(join(tmpdir(), "cw-exec-tmp-"));
      const setup = { ...base, env: { ...base.env, TMPDIR: tmp } };
      const spillDirs = () =>
        readdirSync(tmp).filter((name) => name.startsWith("codewhale-spill-"));
      const command = "seq 1 5000; sleep 30";
      mock.enqueue({ blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command } }] });
      const args = [...streamJson, "--permission-mode", "bypass", "go"];
      const run = spawnCli(["exec", ...args], setup);
      await waitFor(() => spillDirs().length === 1);
      run.child.kill(signal);
      const done = await run.done;
      assert.equal(done.status, 130, done.stderr);
      assert.equal(done.stderr, "codewhale: cancelled\n");
      assert.deepEqual(spillDirs(), [], "the spill directory is gone");
      assert.deepEqual(turnEnds(done.stdout), ["cancelled"]);
      assertClosedCleanly(setup, done.stdout);
    });
  }
});

describe("a signal before the turn starts", () => {
  it("while the session opens (a SessionStart hook runs): the turn is cancelled before any request", async () => {
    const hook = 'touch "$CODEWHALE_PROJECT_DIR/opening"; sleep 1';
    const setup = execEnv(mock, `[[hooks.SessionStart]]\ncommand = ${JSON.stringify(hook)}`);
    mock.enqueue({ blocks: [{ kind: "text", text: "never" }] });
    const run = spawnCli(["exec", ...streamJson, "hi"], setup);
    await waitFor(() => existsSync(join(setup.workspace, "opening")));
    run.child.kill("SIGTERM");
    const done = await run.done;
    assert.equal(done.status, 130, done.stderr);
    assert.equal(done.stderr, "codewhale: cancelled\n");
    assert.equal(mock.requests.length, 0);
    const result = jsonLines(done.stdout).at(-1)!;
    assert.deepEqual([result.type, result.reason], ["result", "cancelled"]);
    assert.deepEqual(turnEnds(done.stdout), ["cancelled"]);
    assertClosedCleanly(setup, done.stdout);
  });
});

describe("a second signal", () => {
  it("exits at once with 130 while the SessionEnd hook still runs; the log is closed and unlocked", async () => {
    const setup = execEnv(
      mock,
      '[[hooks.SessionEnd]]\ncommand = "sleep 20; touch hook-ended"\ntimeout_ms = 30000',
    );
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const run = spawnCli(["exec", ...streamJson, "hi"], setup);
    await waitFor(() => run.stdout().includes('"type":"result"'));
    run.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(run.child.exitCode, null, "one signal waits for the hook");
    run.child.kill("SIGHUP");
    const done = await run.done;
    assert.equal(
      existsSync(join(setup.workspace, "hook-ended")),
      false,
      "did not wait for the hook",
    );
    assert.equal(done.status, 130, done.stderr);
    assert.equal(done.stderr, "codewhale: cancelled\n");
    assert.deepEqual(turnEnds(done.stdout), ["completed"]);
    assertClosedCleanly(setup, done.stdout);
  });
});

describe("a signal in a stdin session (--input-format stream-json)", () => {
  it("ends the session: the running turn is cancelled, the queued prompt never runs, exit 130", async () => {
    const setup = execEnv(mock);
    mock.enqueue(slow({ blocks: [{ kind: "text", text: longText }] }, 20), {
      blocks: [{ kind: "text", text: "never" }],
    });
    const run = spawnCli(["exec", ...stdinSession], setup);
    run.child.stdin?.write('{"type":"user","text":"write"}\n{"type":"user","text":"queued"}\n');
    await waitFor(() => run.stdout().split('"message_delta"').length > 3);
    run.child.kill("SIGTERM");
    const done = await run.done;
    assert.equal(done.status, 130, done.stderr);
    assert.equal(done.stderr, "codewhale: cancelled\n");
    const results = jsonLines(done.stdout).filter((line) => line.type === "result");
    assert.deepEqual(
      results.map((line) => line.reason),
      ["cancelled"],
    );
    assert.equal(mock.requests.length, 1, "the queued prompt was dropped");
    assert.deepEqual(turnEnds(done.stdout), ["cancelled"]);
    assertStdoutInLog(done.stdout);
    assertClosedCleanly(setup, done.stdout);
  });

  it("ends an idle session waiting on stdin with 130", async () => {
    const setup = execEnv(mock);
    mock.enqueue({ blocks: [{ kind: "text", text: "first" }] });
    const run = spawnCli(["exec", ...stdinSession], setup);
    run.child.stdin?.write('{"type":"user","text":"one"}\n');
    await waitFor(() => run.stdout().includes('"type":"result"'));
    run.child.kill("SIGHUP");
    const done = await run.done;
    assert.equal(done.status, 130, done.stderr);
    assert.equal(done.stderr, "codewhale: cancelled\n");
    assert.deepEqual(turnEnds(done.stdout), ["completed"]);
    assertClosedCleanly(setup, done.stdout);
  });
});
