// End to end: `ask_user` in `codewhale exec`. Without an interactive channel the model reads
// at once that no user is available (no hang); with `--input-format stream-json --answer-asks`
// the question goes out as an `ask` line and an `answer` line with `outcome: "answer"` answers
// it. Both the question and the answer are in the log.
import assert from "node:assert/strict";
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

const question = {
  blocks: [
    {
      kind: "tool" as const,
      id: "toolu_q",
      name: "ask_user",
      input: { question: "Which database?", options: ["Postgres", "SQLite"] },
    },
  ],
};

describe("exec: ask_user", () => {
  it("with no interactive channel the model reads that no user is available, and both events are logged", async () => {
    const setup = execEnv(mock);
    mock.enqueue(question, { blocks: [{ kind: "text", text: "I chose Postgres." }] });
    const run = await runExec(
      ["--model", MODEL_OF.anthropic, "--output-format", "stream-json", "set up storage"],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    const lines = jsonLines(run.stdout);
    const result = lines.find((line) => line.type === "tool/result");
    assert.match(String(result?.content), /^No answer: No user is available/);
    const events = readSession(String(lines[0]?.log_path)).events;
    assert.deepEqual(
      events.flatMap((e) => (e.type.startsWith("question/") ? [e.type] : [])),
      ["question/asked", "question/answered"],
    );
  });

  it("--answer-asks: the question is an ask line, and an answer line answers it", async () => {
    const setup = execEnv(mock);
    mock.enqueue(question, { blocks: [{ kind: "text", text: "SQLite it is." }] });
    const child = spawnCli(
      [
        "exec",
        "--model",
        MODEL_OF.anthropic,
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
    send({ type: "user", text: "set up storage" });
    await waitFor(() => lines().some((line) => line.type === "ask"), 30_000);
    const ask = lines().find((line) => line.type === "ask");
    assert.equal(ask?.question, "Which database?");
    assert.deepEqual(ask?.question_options, ["Postgres", "SQLite"]);
    assert.deepEqual(ask?.options, ["answer", "deny"]);
    send({ type: "answer", id: ask?.id, outcome: "answer", answer: "SQLite" });
    await waitFor(() => lines().some((line) => line.type === "result"), 30_000);
    child.child.stdin?.end();
    await child.done;
    const result = lines().find((line) => line.type === "tool/result");
    assert.equal(result?.content, "The user answered: SQLite");
  });
});
