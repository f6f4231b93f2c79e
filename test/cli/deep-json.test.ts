// End to end: JSON nested thousands of levels deep never makes a session unreadable. A model
// whose tool call nests its arguments 3,000 levels deep (prompt-injected) ends the step with
// one line, nothing of it recorded, and the session resumes; a log that holds such a line
// anyway (hand-made, with a valid chain) is reported as damaged at that line, naming it.
import assert from "node:assert/strict";
import { appendFileSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { chainHash, formatLine } from "../../src/session/hash-chain.ts";
import { readSession } from "../../src/session/reader.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { runCli } from "../support/cli.ts";
import { execEnv, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { startPayload, tempDir } from "../support/session-fixtures.ts";

const mock = useMockProvider();
const MODEL = "anthropic/claude-mock-1";

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe("JSON nested too deep", () => {
  it("a response nesting its tool arguments 3,000 levels deep fails the step, unrecorded; the session resumes", async () => {
    const setup = execEnv(mock);
    mock.enqueue({
      blocks: [{ kind: "tool", id: "t1", name: "read", input: { path: "a.txt", x: nested(3000) } }],
    });
    const run = await runExec(["--model", MODEL, "--output-format", "json", "read a.txt"], setup);
    assert.equal(run.status, 1, run.stderr);
    const result = JSON.parse(run.stdout) as { session_id: string; result: string };
    assert.match(run.stderr, /^codewhale: .*nests JSON more than 256 levels deep.*\n$/);
    assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
    mock.enqueue({ blocks: [{ kind: "text", text: "fine again" }] });
    const again = await runExec(
      ["--model", MODEL, "--output-format", "json", "--resume", result.session_id, "go on"],
      setup,
    );
    assert.equal(again.status, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).result, "fine again");
  });

  it("a log holding such a line is damaged at it: verify names the file and line (exit 1), show opens it up to there", () => {
    const home = tempDir("cw-deep-home-");
    const writer = SessionWriter.create(`${home}/sessions`, startPayload);
    writer.append({ type: "user/message", text: "hi" });
    writer.close();
    const last = JSON.parse(readFileSync(writer.path, "utf8").trimEnd().split("\n").at(-1)!);
    const args = `{"x":${"[".repeat(5000)}1${"]".repeat(5000)}}`;
    const body = `{"arguments":${args},"call_id":"c1","decision":{"by":"mode","outcome":"allow"},"name":"read","seq":${last.seq + 1},"step":0,"ts":"2026-12-01T00:00:00.000Z","turn":0,"type":"tool/call","v":1}`;
    appendFileSync(writer.path, `${formatLine(body, chainHash(last.h, body))}\n`);
    assert.throws(
      () => readSession(writer.path),
      /\.jsonl:3: invalid tool\/call: JSON nested too deeply/,
    );
    const env = { env: { CODEWHALE_HOME: home }, cwd: home };
    const verify = runCli(["sessions", "verify", writer.id], env);
    assert.equal(verify.status, 1, verify.stderr);
    assert.equal(
      verify.stderr,
      `codewhale: ${writer.path}:3: invalid tool/call: JSON nested too deeply to check (the agent records at most 256 levels)\n`,
    );
    // `sessions show` opens it read-only up to the damage and says how to cut it.
    const show = runCli(["sessions", "show", writer.id], env);
    assert.equal(show.status, 0, show.stderr);
    assert.match(
      show.stdout,
      /#1 user\/message: hi\n\(damaged tail after seq 1: line 3: invalid tool\/call: JSON nested too deeply/,
    );
    assert.match(show.stdout, /codewhale sessions repair/);
    assert.doesNotMatch(show.stdout + show.stderr + verify.stderr, /Maximum call stack|\n\s+at /);
  });
});
