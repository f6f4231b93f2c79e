// End to end: plan mode in `codewhale exec`. Without an interactive channel the run ends with
// the plan as its output (no hang, no further request); with `--input-format stream-json
// --answer-asks` the plan goes out as an `ask` line that an `answer` line approves (the mode
// switches and the model's next write runs in the same turn) or answers with feedback. The
// plan and the decision are stream-json lines and durable events.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readSession } from "../../src/session/reader.ts";
import {
  execEnv,
  jsonLines,
  MODEL_OF,
  runExec,
  spawnCli,
  waitFor,
} from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });

const PLAN = "# Greeting\n\n1. Write hello.txt with a greeting";
const proposing = {
  blocks: [{ kind: "tool" as const, id: "toolu_p", name: "exit_plan", input: { plan: PLAN } }],
};
const writing = {
  blocks: [
    {
      kind: "tool" as const,
      id: "toolu_w",
      name: "write",
      input: { path: "hello.txt", content: "hello\n" },
    },
  ],
};

describe("exec: plan mode", () => {
  it("with no interactive channel, the run ends with the plan as its output and asks nothing more; resumed, it is carried out", async () => {
    const setup = execEnv(mock);
    mock.enqueue(proposing);
    const run = await runExec(
      ["--model", MODEL_OF.anthropic, "--permission-mode", "plan", "add a greeting"],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `${PLAN}\n`);
    assert.equal(mock.requests.length, 1);
    // As the docs say: resumed outside plan mode, the session carries the plan out.
    mock.enqueue(writing, { blocks: [{ kind: "text", text: "Written." }] });
    const resumed = await runExec(
      [
        "--model",
        MODEL_OF.anthropic,
        "--permission-mode",
        "accept-edits",
        "--continue",
        "go ahead",
      ],
      setup,
    );
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.equal(resumed.stdout, "Written.\n");
    assert.ok(existsSync(join(setup.workspace, "hello.txt")));
  });

  it("stream-json carries the plan and the decision; the result is the plan", async () => {
    const setup = execEnv(mock);
    mock.enqueue(proposing);
    const run = await runExec(
      [
        "--model",
        MODEL_OF.anthropic,
        "--permission-mode",
        "plan",
        "--output-format",
        "stream-json",
        "add a greeting",
      ],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    const lines = jsonLines(run.stdout);
    assert.equal(lines.find((line) => line.type === "plan/proposed")?.plan, PLAN);
    const decided = lines.find((line) => line.type === "plan/decided");
    assert.deepEqual([decided?.approved, decided?.by], [false, "default"]);
    assert.equal(lines.at(-1)?.type, "result");
    assert.equal(lines.at(-1)?.result, PLAN);
  });

  it("--answer-asks: an answer line approves with accept-edits, and the next write of the turn runs", async () => {
    const setup = execEnv(mock);
    mock.enqueue(proposing, writing, { blocks: [{ kind: "text", text: "Done." }] });
    const child = spawnCli(
      [
        "exec",
        "--model",
        MODEL_OF.anthropic,
        "--permission-mode",
        "plan",
        "--input-format",
        "stream-json",
        "--output-format",
        "stream-json",
        "--answer-asks",
      ],
      setup,
    );
    const send = (line: object) => child.child.stdin?.write(`${JSON.stringify(line)}\n`);
    const lines = () => jsonLines(child.stdout().split("\n").slice(0, -1).join("\n"));
    send({ type: "user", text: "add a greeting" });
    await waitFor(() => lines().some((line) => line.type === "ask"), 30_000);
    const ask = lines().find((line) => line.type === "ask");
    assert.equal(ask?.plan, PLAN);
    assert.deepEqual(ask?.options, ["approve", "deny"]);
    send({ type: "answer", id: ask?.id, outcome: "approve", mode: "accept-edits" });
    await waitFor(() => lines().some((line) => line.type === "result"), 30_000);
    child.child.stdin?.end();
    const done = await child.done;
    assert.ok(existsSync(join(setup.workspace, "hello.txt")), done.stderr);
    const events = readSession(String(lines()[0]?.log_path)).events;
    const decided = events.find((event) => event.type === "plan/decided");
    assert.deepEqual(decided?.type === "plan/decided" ? [decided.approved, decided.mode] : [], [
      true,
      "accept-edits",
    ]);
    const write = events.find((event) => event.type === "tool/call" && event.name === "write");
    assert.equal(write?.type === "tool/call" ? write.decision.outcome : "", "allow");
  });

  it("--answer-asks: a deny line's reason goes back to the model as feedback, in plan mode still", async () => {
    const setup = execEnv(mock);
    mock.enqueue(proposing, { blocks: [{ kind: "text", text: "I will revise it." }] });
    const child = spawnCli(
      [
        "exec",
        "--model",
        MODEL_OF.anthropic,
        "--permission-mode",
        "plan",
        "--input-format",
        "stream-json",
        "--output-format",
        "stream-json",
        "--answer-asks",
      ],
      setup,
    );
    const send = (line: object) => child.child.stdin?.write(`${JSON.stringify(line)}\n`);
    const lines = () => jsonLines(child.stdout().split("\n").slice(0, -1).join("\n"));
    send({ type: "user", text: "add a greeting" });
    await waitFor(() => lines().some((line) => line.type === "ask"), 30_000);
    const ask = lines().find((line) => line.type === "ask");
    send({ type: "answer", id: ask?.id, outcome: "deny", reason: "use French" });
    await waitFor(() => lines().some((line) => line.type === "result"), 30_000);
    child.child.stdin?.end();
    await child.done;
    const result = lines().find((line) => line.type === "tool/result");
    assert.match(String(result?.content), /keep planning[\s\S]*use French/);
    assert.equal(lines().find((line) => line.type === "result")?.result, "I will revise it.");
  });
});
