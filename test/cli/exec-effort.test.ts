// `codewhale exec --effort` as a child process: the flag reaches the request (Anthropic's
// thinking budget) and the log (`session/effort`); a stream-json `effort` line changes it for
// the next prompt; a level that is none of the words is refused with one line, exit 2.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });

type Body = { thinking?: { type: string; budget_tokens: number } };

describe("exec --effort", () => {
  it("--effort high is the first request's thinking budget; an effort line changes the next", async () => {
    const setup = execEnv(mock);
    mock.enqueue({ blocks: [{ kind: "text", text: "one" }] });
    mock.enqueue({ blocks: [{ kind: "text", text: "two" }] });
    const args = ["--model", MODEL_OF.anthropic, "--effort", "high"];
    const first = await runExec([...args, "--output-format", "json", "think"], setup);
    assert.equal(first.status, 0, first.stderr);
    assert.deepEqual((mock.requests[0]!.body as Body).thinking, {
      type: "enabled",
      budget_tokens: 32_768,
    });
    const input = [
      { type: "effort", effort: "low" },
      { type: "user", text: "think less" },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n");
    const stream = ["--input-format", "stream-json", "--output-format", "stream-json"];
    const second = await runExec(
      ["--model", MODEL_OF.anthropic, "--continue", ...stream],
      setup,
      `${input}\n`,
    );
    assert.equal(second.status, 0, second.stderr);
    assert.equal((mock.requests[1]!.body as Body).thinking?.budget_tokens, 4096);
    const logged = jsonLines(second.stdout).filter((line) => line.type === "session/effort");
    assert.deepEqual(
      logged.map((line) => line.effort),
      ["low"],
    );
  });

  it("a level that is none of the words is refused with one line, exit 2", async () => {
    const setup = execEnv(mock);
    const run = await runExec(["--model", MODEL_OF.anthropic, "--effort", "extreme", "hi"], setup);
    assert.equal(run.status, 2);
    assert.equal(
      run.stderr.trim(),
      "codewhale: --effort must be one of off, minimal, low, medium, high",
    );
    assert.equal(mock.requests.length, 0);
  });
});
