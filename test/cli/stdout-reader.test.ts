// `codewhale … | head`: when the reader of stdout goes away, a listing ends quietly with its
// own exit code, and a running exec stops its turn as cancelled (exit 130, one stderr line,
// the turn recorded); never an EPIPE stack trace.
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
import { slow, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });

describe("a reader of stdout that goes away", () => {
  it("ends `sessions list` quietly with exit 0", async () => {
    const setup = execEnv(mock);
    for (let i = 0; i < 3; i++) {
      mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
      assert.equal((await runExec(["--model", MODEL_OF.anthropic, `task ${i}`], setup)).status, 0);
    }
    const run = spawnCli(["sessions", "list"], setup);
    run.child.stdout?.destroy();
    const done = await run.done;
    assert.equal(done.status, 0, done.stderr);
    assert.equal(done.stderr, "");
  });

  it("cancels a running exec: exit 130, one line, the turn recorded as cancelled", async () => {
    const setup = execEnv(mock);
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(10);
    mock.enqueue(slow({ blocks: [{ kind: "text", text }] }, 20));
    const run = spawnCli(
      ["exec", "--model", MODEL_OF.anthropic, "--output-format", "stream-json", "write"],
      setup,
    );
    await waitFor(() => run.stdout().split('"message_delta"').length > 3);
    const logPath = String(jsonLines(run.stdout())[0]!.log_path);
    run.child.stdout?.destroy();
    const done = await run.done;
    assert.equal(done.status, 130, done.stderr);
    assert.equal(done.stderr, "codewhale: cancelled: the reader of standard output went away\n");
    const end = readSession(logPath).events.find((e) => e.type === "turn/end");
    assert.equal(end?.type === "turn/end" && end.reason, "cancelled");
  });
});
