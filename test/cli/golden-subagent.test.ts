// Golden files of a session with a subagent (docs/subagents.md), through the built CLI and the
// loopback mock: the parent calls `task`, the child reads a file and answers, the parent
// answers. `exec` stream-json (the child's lines with their parent call) and `sessions show`
// of the parent and of the child are normalised (test/support/golden.ts) and compared byte for
// byte with test/fixtures/golden/; `UPDATE_GOLDEN=1 node scripts/test.mjs golden` rewrites them.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../support/cli.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { matchGolden, normalise, runContext } from "../support/golden.ts";
import { startMockProvider } from "../support/mock-provider/index.ts";

describe("golden files of a session with a subagent", () => {
  it("exec stream-json carries the child's lines; sessions show of the parent and of the child", async () => {
    const mock = await startMockProvider();
    try {
      const setup = execEnv(mock);
      writeFileSync(join(setup.workspace, "notes.txt"), "buy milk\nfix the tests\n");
      mock.enqueue(
        {
          blocks: [
            { kind: "text", text: "I will ask a helper." },
            {
              kind: "tool",
              id: "toolu_task",
              name: "task",
              input: { description: "count notes", prompt: "How many lines has notes.txt?" },
            },
          ],
          usage: { input: 100, output: 20 },
        },
        {
          blocks: [{ kind: "tool", id: "toolu_read", name: "read", input: { path: "notes.txt" } }],
          usage: { input: 80, output: 10 },
        },
        {
          blocks: [{ kind: "text", text: "notes.txt has 2 lines." }],
          usage: { input: 90, output: 8 },
        },
        { blocks: [{ kind: "text", text: "Two lines." }], usage: { input: 130, output: 5 } },
      );
      const run = await runExec(
        ["--model", MODEL_OF.anthropic, "--output-format", "stream-json", "count my notes"],
        setup,
      );
      assert.equal(run.status, 0, run.stderr);
      const context = runContext(setup, mock.url);
      matchGolden("subagent-exec-stream-json.stdout.jsonl", normalise(run.stdout, context));
      const lines = jsonLines(run.stdout);
      const parent = String(lines[0]?.session_id);
      const child = String(lines.find((line) => line.parent_call_id)?.session_id);
      for (const [id, name] of [
        [parent, "subagent-parent-sessions-show.txt"],
        [child, "subagent-child-sessions-show.txt"],
      ] as const) {
        const show = runCli(["sessions", "show", id], { env: setup.env, cwd: setup.workspace });
        assert.equal(show.status, 0, show.stderr);
        matchGolden(name, normalise(show.stdout, context));
      }
    } finally {
      await mock.close();
    }
  });
});
