// End to end: a provider that goes quiet mid-request is a failed step that is retried within
// the budget ([retry] stream_idle_timeout_ms), not a run that hangs.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { slow, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });

describe("a provider that goes quiet", () => {
  it("fails the step after stream_idle_timeout_ms and the retry answers", async () => {
    const setup = execEnv(mock, "[retry]\nstream_idle_timeout_ms = 300\ninitial_delay_ms = 10");
    mock.enqueue(slow({ blocks: [{ kind: "text", text: "late" }] }, 5000), {
      blocks: [{ kind: "text", text: "on time" }],
    });
    const run = await runExec(
      ["--model", MODEL_OF.anthropic, "--output-format", "stream-json", "hi"],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    const lines = jsonLines(run.stdout);
    const failed = lines.find((l) => l.type === "step/failed");
    assert.equal(failed?.error, "no data from the provider for 0.3 s (stream_idle_timeout_ms)");
    assert.equal(failed?.will_retry, true);
    assert.equal(lines.at(-1)!.result, "on time");
  });
});
