// End to end: `codewhale exec` across failures and sessions: prefix-stable requests over a
// multi-step turn and a resumed turn (one kind here, each at the agent level in
// test/agent/prefix-stability.test.ts), a model switch on resume, resume after SIGKILL
// mid-stream, SIGINT (exit 130), retries within the budget, and the two-way stream-json
// session on stdin.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { readSession } from "../../src/session/reader.ts";
import { runCli } from "../support/cli.ts";
import {
  type ExecEnv,
  execEnv,
  jsonLines,
  MODEL_OF,
  runExec,
  spawnCli,
  waitFor,
} from "../support/exec-harness.ts";
import { rateLimited, serverError, slow, useMockProvider } from "../support/mock-provider/index.ts";
import { comparable, historyPrefix } from "../support/prefix-stability.ts";

const mock = useMockProvider({ each: true });

function sessionIdOf(stdout: string): string {
  return String(jsonLines(stdout)[0]!.session_id);
}

function verify(setup: ExecEnv, id: string): void {
  const run = runCli(["sessions", "verify", id], { env: setup.env, cwd: setup.workspace });
  assert.equal(run.status, 0, run.stderr);
}

const longText = "The quick brown fox jumps over the lazy dog. ".repeat(10);

/** An exec streaming a slow answer as stream-json, once more than `deltas` deltas arrived. */
async function slowStreamStarted(setup: ExecEnv, deltas: number) {
  mock.enqueue(slow({ blocks: [{ kind: "text", text: longText }] }, 20));
  const run = spawnCli(
    ["exec", "--model", MODEL_OF.anthropic, "--output-format", "stream-json", "write"],
    setup,
  );
  await waitFor(() => run.stdout().split('"message_delta"').length > deltas);
  return run;
}

describe("prefix stability", () => {
  // One exec run; each wire format's is test/agent/prefix-stability.test.ts's.
  it("anthropic: each request's messages begin with the previous request's, across steps and turns", async () => {
    const kind = "anthropic";
    const setup = execEnv(mock);
    const model = MODEL_OF[kind];
    mock.enqueue(
      {
        blocks: [
          { kind: "thinking", text: "Let me try a tool.", signature: "sig-a" },
          { kind: "text", text: "Trying." },
          { kind: "tool", id: "call_1", name: "nope", input: { x: 1 } },
        ],
      },
      { blocks: [{ kind: "tool", id: "call_2", name: "nope", input: { x: "é" } }] },
      { blocks: [{ kind: "text", text: "Done." }] },
      { blocks: [{ kind: "text", text: "Second turn." }] },
    );
    const first = await runExec(["--model", model, "--output-format", "stream-json", "go"], setup);
    assert.equal(first.status, 0, first.stderr);
    const id = sessionIdOf(first.stdout);
    const second = await runExec(["--model", model, "--resume", id, "again"], setup);
    assert.equal(second.status, 0, second.stderr);
    assert.equal(mock.requests.length, 4);
    for (let n = 0; n + 1 < mock.requests.length; n++) {
      const previous = historyPrefix(kind, comparable(kind, mock.requests[n]!.raw));
      const next = comparable(kind, mock.requests[n + 1]!.raw);
      assert.ok(next.startsWith(previous), `request ${n + 2} extends request ${n + 1}`);
    }
    verify(setup, id);
  });

  it("--model on --resume switches model (and provider kind); the old log is unchanged", async () => {
    const setup = execEnv(mock);
    mock.enqueue(
      {
        blocks: [
          { kind: "thinking", text: "hm", signature: "sig" },
          { kind: "text", text: "one" },
        ],
      },
      { blocks: [{ kind: "text", text: "two" }] },
    );
    const first = await runExec(
      ["--model", MODEL_OF.anthropic, "--output-format", "stream-json", "hi"],
      setup,
    );
    const id = sessionIdOf(first.stdout);
    const path = String(jsonLines(first.stdout)[0]!.log_path);
    const before = readFileSync(path, "utf8");
    const second = await runExec(
      ["--resume", id, "--model", MODEL_OF["openai-chat"], "and now?"],
      setup,
    );
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stdout, "two\n");
    const after = readFileSync(path, "utf8");
    assert.ok(after.startsWith(before));
    const added = readSession(path).events.slice(before.split("\n").length - 1);
    assert.equal(added[0]!.type, "session/model");
    assert.equal(mock.requests[1]!.api, "openai-chat");
    verify(setup, id);
  });
});

describe("crashes and signals", () => {
  it("resumes after SIGKILL mid-stream: the partial is recorded, the log verifies, the talk goes on", async () => {
    const setup = execEnv(mock);
    const run = await slowStreamStarted(setup, 4);
    await new Promise((resolve) => setTimeout(resolve, 150));
    run.child.kill("SIGKILL");
    const killed = await run.done;
    assert.equal(killed.signal, "SIGKILL");
    const id = sessionIdOf(killed.stdout);
    mock.enqueue({ blocks: [{ kind: "text", text: "Continuing." }] });
    const resumed = await runExec(["--resume", id, "--output-format", "json", "continue"], setup);
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.equal(JSON.parse(resumed.stdout).result, "Continuing.");
    verify(setup, id);
    const path = String(jsonLines(killed.stdout)[0]!.log_path);
    const events = readSession(path).events;
    const failed = events.find((e) => e.type === "step/failed");
    assert.ok(failed?.type === "step/failed" && failed.partial[0]!.text.startsWith("The quick"));
    const ends = events
      .filter((e) => e.type === "turn/end")
      .map((e) => e.type === "turn/end" && e.reason);
    assert.deepEqual(ends, ["error", "completed"]);
    assert.ok(!mock.requests[1]!.raw.includes("lazy dog"), "the partial is never replayed");
  });

  it("SIGINT cancels: exit 130, the partial in step/failed, turn/end cancelled, a final result line", async () => {
    const setup = execEnv(mock);
    const run = await slowStreamStarted(setup, 3);
    run.child.kill("SIGINT");
    const done = await run.done;
    assert.equal(done.status, 130, done.stderr);
    const lines = jsonLines(done.stdout);
    const failed = lines.find((l) => l.type === "step/failed")!;
    assert.equal(failed.will_retry, false);
    assert.equal(lines.find((l) => l.type === "turn/end")!.reason, "cancelled");
    const result = lines.at(-1)!;
    assert.equal(result.type, "result");
    assert.equal(result.exit_code, 130);
    assert.equal(done.stderr, "codewhale: cancelled\n");
  });
});

describe("retries", () => {
  it("a 429 with retry-after is waited out, then the answer arrives", async () => {
    const setup = execEnv(mock);
    mock.enqueue(rateLimited("0.3"), { blocks: [{ kind: "text", text: "after the wait" }] });
    const run = await runExec(
      ["--model", MODEL_OF.anthropic, "--output-format", "stream-json", "hi"],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    const failed = jsonLines(run.stdout).find((l) => l.type === "step/failed")!;
    assert.deepEqual([failed.status, failed.will_retry], [429, true]);
    assert.equal(jsonLines(run.stdout).at(-1)!.result, "after the wait");
    const { delay_ms } = failed.retry as { delay_ms: number };
    assert.ok(delay_ms >= 300, `the wait (${delay_ms} ms) honours retry-after`);
  });

  it("500 until the budget runs out: a line per retry, then one line naming status and request, exit 1", async () => {
    const retry =
      "[retry]\nmax_retries = 100\ninitial_delay_ms = 50\nmax_delay_ms = 200\nbudget_ms = 1500";
    const setup = execEnv(mock, retry);
    for (let i = 0; i < 100; i++) mock.enqueue(serverError());
    const run = await runExec(["--model", MODEL_OF.anthropic, "hi"], setup);
    assert.equal(run.status, 1);
    assert.ok(mock.requests.length > 3);
    const lines = run.stderr.trimEnd().split("\n");
    const retries = lines.slice(0, -1);
    assert.equal(retries.length, mock.requests.length - 1, run.stderr);
    retries.forEach((line, i) => {
      assert.match(
        line,
        new RegExp(`^retrying in \\d+ ms \\(attempt ${i + 2} of 101\\): HTTP 500$`),
      );
    });
    assert.match(
      lines.at(-1) ?? "",
      /^codewhale: anthropic HTTP 500 \(request req_mock_\d+\): .*Mock internal error$/,
    );
  });
});

describe("--input-format stream-json", () => {
  it("runs user lines as turns, answers a malformed line with its number, ends at EOF", async () => {
    const setup = execEnv(mock);
    mock.enqueue(
      { blocks: [{ kind: "text", text: "first" }] },
      { blocks: [{ kind: "text", text: "second" }] },
    );
    const input = '{"type":"user","text":"one"}\nnot json\n{"type":"user","text":"two"}\n';
    const args = [
      "--model",
      MODEL_OF.anthropic,
      "--input-format",
      "stream-json",
      "--output-format",
      "stream-json",
    ];
    const run = await runExec(args, setup, input);
    assert.equal(run.status, 0, run.stderr);
    const lines = jsonLines(run.stdout);
    assert.equal(lines[0]!.type, "init");
    assert.deepEqual(
      lines.find((l) => l.type === "error"),
      { type: "error", line: 2, message: "not valid JSON" },
    );
    const results = lines.filter((l) => l.type === "result").map((l) => l.result);
    assert.deepEqual(results, ["first", "second"]);
  });

  it("a steer line during a turn reaches the model in the same turn", async () => {
    const setup = execEnv(mock);
    mock.enqueue(slow({ blocks: [{ kind: "text", text: longText }] }, 10), {
      blocks: [{ kind: "text", text: "noted" }],
    });
    const args = [
      "exec",
      "--model",
      MODEL_OF.anthropic,
      "--input-format",
      "stream-json",
      "--output-format",
      "stream-json",
    ];
    const run = spawnCli(args, setup);
    run.child.stdin?.write('{"type":"user","text":"write"}\n');
    await waitFor(() => run.stdout().includes('"message_delta"'));
    run.child.stdin?.end('{"type":"steer","text":"be brief"}\n');
    const done = await run.done;
    assert.equal(done.status, 0, done.stderr);
    const lines = jsonLines(done.stdout);
    assert.ok(lines.some((l) => l.type === "steering/message" && l.text === "be brief"));
    assert.equal(lines.filter((l) => l.type === "result").length, 1);
    assert.match(mock.requests[1]!.raw, /be brief/);
  });
});
