// End to end: a `bash` call with `background: true` through the built `codewhale exec` returns
// at once with an id, and the background process (its whole tree) ends with the session.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { describe, it } from "node:test";
import { execEnv, jsonLines, MODEL_OF, spawnCli, waitFor } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Command lines of the running processes that contain `marker`. */
function processesWith(marker: string): string[] {
  const table = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
  return table.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

describe("codewhale exec background processes", () => {
  it("starts a background command, returns at once, and ends it with the session", async () => {
    const setup = execEnv(mock);
    const marker = `${300 + randomInt(1000)}.5`;
    const command = `bash -c 'echo $$ > bg.pid; sleep ${marker}; true'`;
    mock.enqueue({
      blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command, background: true } }],
    });
    // The next step waits in the foreground until the background command has started.
    const wait = "until [ -s bg.pid ]; do sleep 0.05; done; cat bg.pid";
    mock.enqueue({
      blocks: [{ kind: "tool", id: "toolu_2", name: "bash", input: { command: wait } }],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "Started." }] });
    // Unconfined: `$$` must be a host pid (in the OS sandbox it is one of its own pid namespace).
    const args = [
      "exec",
      "--model",
      MODEL_OF.anthropic,
      "--permission-mode",
      "bypass",
      "--sandbox",
      "off",
    ];
    const run = await spawnCli([...args, "--output-format", "stream-json", "go"], setup, "").done;
    assert.equal(run.status, 0, run.stderr);
    const [result, waited] = jsonLines(run.stdout).filter((line) => line.type === "tool/result");
    assert.equal(result?.is_error, false);
    assert.match(String(result?.content), /^Started background process bg1\./);
    const pid = Number.parseInt(String(waited?.content), 10);
    assert.ok(pid > 0, String(waited?.content));
    await waitFor(() => !isAlive(pid));
    assert.deepEqual(processesWith(`sleep ${marker}`), [], "the background tree ended with exec");
  });
});
