// Display-only thinking: the same scripted session (thinking, a tool call, an answer, then a
// resumed second turn that replays it all) run with `[display] show_thinking = true` and with
// `--hide-thinking` over it. What is shown differs; the session logs are byte-identical apart
// from ids, times and hashes, and the requests the mock recorded (the replay included) are
// identical.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { execEnv, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { normalise, runContext } from "../support/golden.ts";
import { startMockProvider } from "../support/mock-provider/index.ts";

interface Shown {
  stderr: string;
  log: string;
  requests: string[];
}

function logsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => join(dir, name));
}

/** Runs the session twice (a prompt, then --continue) with `flags`; a fresh mock each time. */
async function session(flags: string[]): Promise<Shown> {
  const mock = await startMockProvider();
  try {
    const setup = execEnv(mock, "[display]\nshow_thinking = true");
    mock.enqueue({
      blocks: [
        { kind: "thinking", text: "First list the files.", signature: "sig-1" },
        { kind: "tool", id: "toolu_ls", name: "ls", input: { path: "." } },
      ],
    });
    mock.enqueue({
      blocks: [
        { kind: "thinking", text: "Nothing there.", signature: "sig-2" },
        { kind: "text", text: "The folder is empty." },
      ],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "Still empty." }] });
    const args = ["--model", MODEL_OF.anthropic, ...flags];
    const first = await runExec([...args, "what is here?"], setup);
    assert.equal(first.status, 0, first.stderr);
    const second = await runExec([...args, "--continue", "and now?"], setup);
    assert.equal(second.status, 0, second.stderr);
    const context = runContext(setup, mock.url);
    const [log, ...others] = logsUnder(join(setup.home, "sessions"));
    assert.equal(others.length, 0, "one session, continued");
    return {
      stderr: first.stderr + second.stderr,
      log: normalise(readFileSync(log!, "utf8"), context),
      requests: mock.requests.map((request) => normalise(request.raw, context)),
    };
  } finally {
    await mock.close();
  }
}

describe("display-only thinking", () => {
  it("show_thinking and --hide-thinking: other stderr, identical logs and replayed requests", async () => {
    const shown = await session([]);
    const hidden = await session(["--hide-thinking"]);
    assert.match(shown.stderr, /^\[thinking\] First list the files\.$/m);
    assert.match(shown.stderr, /^\[thinking\] Nothing there\.$/m);
    assert.doesNotMatch(hidden.stderr, /thinking|First list|Nothing there/);
    assert.equal(hidden.log, shown.log);
    assert.equal(shown.requests.length, 3);
    assert.deepEqual(hidden.requests, shown.requests);
    // The third request replays the signed thinking of the first turn.
    assert.match(shown.requests[2]!, /"signature":"sig-1"/);
  });
});
