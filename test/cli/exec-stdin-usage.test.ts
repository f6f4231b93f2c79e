// End to end: what `codewhale exec` refuses rather than silently reinterpret: a stdin `user` or
// `steer` line with empty or blank text gets the documented `error` line, and an empty
// `--resume`, `--session-dir` or `--cwd` is a one-line usage error (exit 2).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../support/cli.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });

describe("--input-format stream-json: lines with nothing to say", () => {
  it("answers empty and blank user or steer text with an error line naming it, and goes on", async () => {
    const setup = execEnv(mock);
    mock.enqueue({ blocks: [{ kind: "text", text: "answered" }] });
    const input = [
      '{"type":"user","text":""}',
      '{"type":"user","text":"  \\n "}',
      '{"type":"steer","text":""}',
      '{"type":"user","text":"real"}',
      "",
    ].join("\n");
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
    assert.deepEqual(
      lines.filter((line) => line.type === "error"),
      [1, 2, 3].map((line) => ({ type: "error", line, message: "text: must not be empty" })),
    );
    const prompts = lines.filter((line) => line.type === "user/message").map((line) => line.text);
    assert.deepEqual(prompts, ["real"]);
    assert.equal(mock.requests.length, 1);
    assert.deepEqual(
      lines.filter((line) => line.type === "result").map((line) => line.result),
      ["answered"],
    );
  });
});

describe("empty option values", () => {
  const cases: Array<[string, string]> = [
    ["--resume", "codewhale: --resume needs a session id or prefix\n"],
    ["--session-dir", "codewhale: --session-dir needs a directory\n"],
    ["--cwd", "codewhale: --cwd needs a directory\n"],
  ];
  for (const [flag, stderr] of cases) {
    it(`exec ${flag} "" is a usage error (exit 2), not the default; no session is started`, () => {
      const setup = execEnv(mock);
      const run = runCli(["exec", "--model", MODEL_OF.anthropic, flag, "", "hi"], {
        env: setup.env,
        cwd: setup.workspace,
      });
      assert.equal(run.status, 2, run.stderr);
      assert.equal(run.stderr, stderr);
      assert.equal(run.stdout, "");
      assert.equal(existsSync(join(setup.home, "sessions")), false);
      assert.equal(mock.requests.length, 0);
    });
  }
});
