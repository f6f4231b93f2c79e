// End to end: a `bash` call with `background: true` through the built `codewhale exec` returns
// at once with an id, and the background process (its whole tree) ends with the session.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { describe, it } from "node:test";
import { execEnv, jsonLines, MODEL_OF, spawnCli, waitFor } from "../support/exec-harness.ts";
import { slow, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

/** Command lines of the running processes that contain `marker`. */
function processesWith(marker: string): string[] {
  const table = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
  return table.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

describe("codewhale exec background processes", () => {
  it("starts a background command, returns at once, and ends it with the session", async () => {
    const setup = execEnv(mock);
    const marker = `${300 + randomInt(1000)}.5`;
    const command = `bash -c 'sleep ${marker}; true'`;
    mock.enqueue({
      blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command, background: true } }],
    });
    // The answer streams slowly, so the background process can be seen while exec runs.
    mock.enqueue(slow({ blocks: [{ kind: "text", text: "Started." }] }, 100));
    const args = ["exec", "--model", MODEL_OF.anthropic, "--permission-mode", "bypass"];
    const spawned = spawnCli([...args, "--output-format", "stream-json", "go"], setup, "");
    await waitFor(() => processesWith(`sleep ${marker}`).length > 0);
    const run = await spawned.done;
    assert.equal(run.status, 0, run.stderr);
    assert.ok(run.ms < 20_000, "exec did not wait for the background command");
    const result = jsonLines(run.stdout).find((line) => line.type === "tool/result")!;
    assert.equal(result.is_error, false);
    assert.match(String(result.content), /^Started background process bg1\./);
    assert.deepEqual(processesWith(`sleep ${marker}`), [], "the background tree ended with exec");
  });
});
