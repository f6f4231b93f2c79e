// End to end: the API key never reaches stderr, stdout or the session log, even when a server
// echoes it back in an error; a key a header cannot carry is a config error before any request.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });

describe("the API key in failures", () => {
  it("a 401 that echoes the key: one line without it, nor in the result or the log", async () => {
    const setup = execEnv(mock);
    const key = setup.env.ANTHROPIC_API_KEY!;
    mock.enqueue({
      fault: "http",
      status: 401,
      errorType: "authentication_error",
      message: `invalid x-api-key: ${key}\nsee the docs`,
    });
    const run = await runExec(
      ["--model", MODEL_OF.anthropic, "--output-format", "stream-json", "hi"],
      setup,
    );
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^codewhale: .*401.*invalid x-api-key: \*\*\* see the docs\n$/);
    const lines = jsonLines(run.stdout);
    const log = readFileSync(String(lines[0]!.log_path), "utf8");
    for (const text of [run.stdout, run.stderr, log]) assert.ok(!text.includes(key));
    assert.ok(!String(lines.at(-1)!.error).includes("\n"), "the result's error is one line");
  });

  it("a key with a line break is a config error naming the variable, before any request", async () => {
    const setup = execEnv(mock);
    const key = `${setup.env.ANTHROPIC_API_KEY}\nX-Injected: 1`;
    const before = mock.requests.length;
    const run = await runExec(["--model", MODEL_OF.anthropic, "hi"], {
      ...setup,
      env: { ...setup.env, ANTHROPIC_API_KEY: key },
    });
    assert.equal(run.status, 2);
    assert.match(
      run.stderr,
      /^codewhale: the API key in ANTHROPIC_API_KEY .* cannot carry; set it again\n$/,
    );
    assert.ok(!run.stderr.includes(setup.env.ANTHROPIC_API_KEY!));
    assert.equal(mock.requests.length, before, "no request was sent");
  });

  it("surrounding whitespace around a pasted key is trimmed", async () => {
    const setup = execEnv(mock);
    mock.enqueue({ blocks: [{ kind: "text", text: "fine" }] });
    const run = await runExec(["--model", MODEL_OF.anthropic, "hi"], {
      ...setup,
      env: { ...setup.env, ANTHROPIC_API_KEY: ` ${setup.env.ANTHROPIC_API_KEY}\n` },
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, "fine\n");
  });
});
