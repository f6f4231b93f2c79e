// End to end: the built `codewhale exec` runs the real `bash` tool against the loopback mock,
// and the output policy holds on every path. A secret in a command's output is redacted in the
// session log, the next model request, stream-json and the spill file; the session's spill
// directory is gone after a normal end, SIGINT and SIGTERM; a dead process's is swept at start.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readSession } from "../../src/session/reader.ts";
import {
  type ExecEnv,
  execEnv,
  jsonLines,
  MODEL_OF,
  spawnCli,
  waitFor,
} from "../support/exec-harness.ts";
import { slow, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });
const ARGS = ["exec", "--model", MODEL_OF.anthropic, "--permission-mode", "bypass"];

/** An exec setup whose spill directories go to a temp dir of its own, budget 2,000 bytes. */
function setupWithOwnTmp(): ExecEnv & { tmp: string } {
  const setup = execEnv(mock, "[output]\nmax_bytes = 2000\n");
  const tmp = mkdtempSync(join(tmpdir(), "cw-exec-tmp-"));
  return { ...setup, env: { ...setup.env, TMPDIR: tmp }, tmp };
}

const spillDirs = (tmp: string) =>
  readdirSync(tmp).filter((name) => name.startsWith("codewhale-spill-"));

function randomChars(alphabet: string, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

function bashCall(command: string) {
  return { blocks: [{ kind: "tool" as const, id: "toolu_1", name: "bash", input: { command } }] };
}

describe("codewhale exec output policy", () => {
  it("redacts a secret in the log, the model request, stream-json and the spill file", async () => {
    const setup = setupWithOwnTmp();
    const aws = `AKIA${randomChars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)}`;
    const lines = Array.from({ length: 400 }, (_, i) => `\x1b[32mline ${i}\x1b[0m ok`);
    lines.splice(5, 0, `export AWS_ACCESS_KEY_ID=${aws}`);
    writeFileSync(join(setup.workspace, "out.txt"), `${lines.join("\n")}\n`);
    mock.enqueue(bashCall("cat out.txt"));
    // The answer streams slowly, so the spill file can be read while exec still runs.
    mock.enqueue(slow({ blocks: [{ kind: "text", text: "Read it all." }] }, 100));
    const run = spawnCli([...ARGS, "--output-format", "stream-json", "go"], setup, "");
    await waitFor(() => mock.requests.length === 2);
    const request = mock.requests[1]!.raw;
    assert.ok(!request.includes(aws), "the model request never holds the secret");
    assert.match(request, /\[REDACTED:aws_access_key_id\]/);
    assert.ok(!request.includes("\\u001b["), "no escape sequences reach the model");
    const spillPath = /full output in (\S+) …\]/.exec(
      JSON.parse(request).messages.at(-1).content[0].content,
    )?.[1];
    assert.ok(spillPath?.startsWith(setup.tmp), `spilled under TMPDIR: ${spillPath}`);
    const spilled = readFileSync(spillPath as string, "utf8");
    assert.ok(spilled.includes("[REDACTED:aws_access_key_id]") && !spilled.includes(aws));
    assert.ok(spilled.includes("line 399 ok"), "the spill holds the whole output");
    const done = await run.done;
    assert.equal(done.status, 0, done.stderr);
    assert.ok(!done.stdout.includes(aws), "stream-json never holds the secret");
    const result = jsonLines(done.stdout).find((line) => line.type === "tool/result");
    assert.match(String(result?.content), /\[REDACTED:aws_access_key_id\]/);
    const log = String(jsonLines(done.stdout)[0]!.log_path);
    assert.ok(!readFileSync(log, "utf8").includes(aws), "the session log never holds the secret");
    const logged = readSession(log).events.find((event) => event.type === "tool/result");
    assert.ok(logged?.type === "tool/result" && logged.truncated);
    assert.deepEqual(spillDirs(setup.tmp), [], "the spill directory is gone after exit");
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`removes the spill directory when ${signal} stops a running command`, async () => {
      const setup = setupWithOwnTmp();
      mock.enqueue(bashCall("seq 1 5000; sleep 30"));
      const run = spawnCli([...ARGS, "go"], setup, "");
      await waitFor(() => spillDirs(setup.tmp).length === 1);
      run.child.kill(signal);
      const done = await run.done;
      assert.ok(done.status !== 0 || done.signal !== null, "exec does not report success");
      assert.deepEqual(spillDirs(setup.tmp), []);
    });
  }

  it("fails open when the spill cannot be written: delivered, recorded, one status line", async () => {
    const setup = execEnv(mock, "[output]\nmax_bytes = 2000\n");
    const notADir = join(setup.workspace, "not-a-dir");
    writeFileSync(notADir, "");
    const env = { ...setup.env, TMPDIR: join(notADir, "tmp") };
    mock.enqueue(bashCall("seq 1 3000"));
    mock.enqueue({ blocks: [{ kind: "text", text: "Counted." }] });
    const done = await spawnCli(
      [...ARGS, "--output-format", "stream-json", "go"],
      { ...setup, env },
      "",
    ).done;
    assert.equal(done.status, 0, done.stderr);
    const result = jsonLines(done.stdout).find((line) => line.type === "tool/result")!;
    assert.equal(result.truncated, true);
    assert.equal(result.spill_path, null);
    assert.match(String(result.content), /full output not saved/);
    assert.match(String(result.content), /^1\n2\n/);
    assert.match(String((result.policy_errors as string[])[0]), /^spill: /);
    assert.match(
      done.stderr,
      /^codewhale: output policy: bash \(toolu_1\): spill: .*; the output was still delivered\n$/,
    );
    assert.equal(jsonLines(done.stdout).at(-1)!.result, "Counted.", "the session went on");
  });

  it("sweeps a spill directory left by a dead process, and leaves a live one's", async () => {
    const setup = setupWithOwnTmp();
    const deadPid = spawnSync("true").pid as number;
    const dead = join(setup.tmp, `codewhale-spill-${deadPid}-stale`);
    const live = join(setup.tmp, `codewhale-spill-${process.pid}-live`);
    mkdirSync(dead, { mode: 0o700 });
    writeFileSync(join(dead, "out.log"), "left behind");
    mkdirSync(live, { mode: 0o700 });
    mock.enqueue({ blocks: [{ kind: "text", text: "Hello." }] });
    const done = await spawnCli([...ARGS, "go"], setup, "").done;
    assert.equal(done.status, 0, done.stderr);
    assert.deepEqual(spillDirs(setup.tmp), [`codewhale-spill-${process.pid}-live`]);
  });
});
