// One fold for the figures: the `result` line of `codewhale exec` and `codewhale sessions show
// --json` of the stored session agree on turns, steps, usage and cost, and the stored view adds
// the failed requests, the tool calls and the durations; `--at` gives them as they stood.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCli } from "../support/cli.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { serverError, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

describe("session figures: exec's result and sessions show --json", () => {
  it("agree, and the stored view adds failures, calls and durations", async () => {
    const setup = execEnv(mock, "[retry]\ninitial_delay_ms = 1\nmax_delay_ms = 1");
    mock.enqueue(serverError());
    mock.enqueue({
      blocks: [{ kind: "tool", id: "toolu_1", name: "ls", input: {} }],
      usage: { input: 11, output: 3, cacheWrite: 4 },
    });
    mock.enqueue({
      blocks: [{ kind: "text", text: "two files" }],
      usage: { input: 30, output: 9 },
    });
    const args = ["--model", MODEL_OF.anthropic, "--output-format", "stream-json", "list"];
    const run = await runExec(args, setup);
    assert.equal(run.status, 0, run.stderr);
    const lines = jsonLines(run.stdout);
    const result = lines.at(-1)!;
    const show = (...extra: string[]) => {
      const shown = runCli(["sessions", "show", String(result.session_id), "--json", ...extra], {
        env: setup.env,
      });
      assert.equal(shown.status, 0, shown.stderr);
      return JSON.parse(shown.stdout) as { figures: Record<string, unknown> };
    };
    const { figures } = show();
    assert.deepEqual(
      [figures.turns, figures.steps, figures.usage, figures.cost],
      [result.turns, result.steps, result.usage, result.cost],
    );
    assert.deepEqual(
      [figures.turns, figures.steps, figures.failed_steps, figures.tool_calls],
      [1, 2, 1, 1],
    );
    const ms = (key: string) => figures[key] as number;
    assert.ok(ms("request_ms") >= 0 && ms("request_ms") <= ms("turn_ms"), JSON.stringify(figures));
    assert.ok(ms("turn_ms") <= ms("span_ms"), JSON.stringify(figures));

    const firstStepEnd = lines.find((line) => line.type === "step/end")!;
    const early = show("--at", String(firstStepEnd.seq)).figures;
    assert.deepEqual([early.steps, early.failed_steps, early.tool_calls], [1, 1, 0]);
    assert.deepEqual(early.usage, firstStepEnd.usage);
  });
});
