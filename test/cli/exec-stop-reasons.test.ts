// How `codewhale exec` ends a turn the model did not answer, as a child process against the
// mock: a refusal, a content filter or an empty answer is one line on stderr, `stop_reason` on
// the result, and exit 3 (docs/exec.md). A tool call cut off at the output token limit is not
// run: the model reads an error result saying so, and the turn goes on (one run here; each wire
// format's variants at the agent level, test/agent/output-limit-cut-call.test.ts).
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CUT_CALL_RESULT } from "../../src/agent/tool-calls.ts";
import type { ProviderApi } from "../../src/providers/index.ts";
import {
  execEnv,
  jsonLines,
  KINDS,
  MODEL_OF,
  runExec,
  runExecWithTools,
} from "../support/exec-harness.ts";
import { type Enqueued, replayOf, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

async function execJson(kind: ProviderApi, reply: Enqueued) {
  mock.enqueue(reply);
  const run = await runExec(
    ["--model", MODEL_OF[kind], "--output-format", "json", "hello"],
    execEnv(mock),
  );
  return { run, result: jsonLines(run.stdout).at(-1) ?? {} };
}

describe("exec: a turn without an answer", () => {
  it("a recorded Anthropic refusal is one line on stderr and exit 3 in text mode", async () => {
    mock.enqueue(replayOf("anthropic/vercel-refusal"));
    const run = await runExec(["--model", MODEL_OF.anthropic, "hello"], execEnv(mock));
    assert.equal(run.status, 3, run.stderr);
    assert.equal(run.stdout, "");
    assert.equal(
      run.stderr,
      "codewhale: the model refused to answer (stop_reason refusal)\n",
      "exactly one line",
    );
  });

  it("a recorded OpenAI Chat refusal field is stop_reason refusal on the json result", async () => {
    const { run, result } = await execJson("openai-chat", replayOf("chat/openai-refusal-field"));
    assert.equal(run.status, 3, run.stderr);
    assert.equal(result.stop_reason, "refusal");
    assert.equal(result.exit_code, 3);
    assert.equal(result.is_error, true);
    assert.equal(result.reason, "completed");
  });

  for (const kind of ["openai-chat", "openai-responses"] as const) {
    it(`${kind}: a content filter is stop_reason content_filter and exit 3`, async () => {
      const { run, result } = await execJson(kind, {
        blocks: [{ kind: "text", text: "Once upon" }],
        stopReason: "content_filter",
      });
      assert.equal(run.status, 3, run.stderr);
      assert.equal(result.stop_reason, "content_filter");
      assert.match(String(result.error), /content filter/);
      assert.match(run.stderr, /^codewhale: the provider's content filter stopped the answer/);
    });
  }

  for (const kind of KINDS) {
    it(`${kind}: an empty answer is stop_reason empty and exit 3 in stream-json`, async () => {
      mock.enqueue({ blocks: [] });
      const run = await runExec(
        ["--model", MODEL_OF[kind], "--output-format", "stream-json", "hello"],
        execEnv(mock),
      );
      assert.equal(run.status, 3, run.stderr);
      const result = jsonLines(run.stdout).at(-1) ?? {};
      assert.equal(result.type, "result");
      assert.equal(result.stop_reason, "empty");
      assert.equal(result.exit_code, 3);
    });
  }

  it("an answer is exit 0 with the provider's own stop reason", async () => {
    const { run, result } = await execJson("anthropic", replayOf("anthropic/vercel-text"));
    assert.equal(run.status, 0, run.stderr);
    assert.equal(result.stop_reason, "end_turn");
    assert.equal(result.is_error, false);
  });
});

describe("exec: a tool call cut off at the output token limit", () => {
  // One exec run; each wire format's cuts are test/agent/output-limit-cut-call.test.ts's.
  it("anthropic: is not run, the model reads why, and the turn goes on", async () => {
    const setup = execEnv(mock);
    const toolLog = join(setup.home, "tools.jsonl");
    mock.enqueue(
      {
        blocks: [{ kind: "tool", id: "call_cut", name: "bash", input: { command: "echo hi" } }],
        stopReason: "max_tokens",
      },
      { blocks: [{ kind: "text", text: "I will try again." }] },
    );
    const first = mock.requests.length;
    const run = await runExecWithTools(
      [
        "--model",
        MODEL_OF.anthropic,
        "--permission-mode",
        "bypass",
        "--output-format",
        "json",
        "go",
      ],
      setup,
      toolLog,
    );
    assert.equal(run.status, 0, run.stderr);
    assert.equal(existsSync(toolLog) ? readFileSync(toolLog, "utf8") : "", "", "never ran");
    assert.equal(mock.requests.length - first, 2, "the turn went on");
    const next = mock.requests[first + 1]?.raw ?? "";
    assert.ok(next.includes(JSON.stringify(CUT_CALL_RESULT).slice(1, -1)), "the model got why");
    assert.equal(jsonLines(run.stdout).at(-1)?.result, "I will try again.");
  });
});
