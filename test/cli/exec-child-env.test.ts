// End to end: no child of `codewhale exec` can get at the provider keys. A bash tool call's
// `env` and its `/proc/$PPID/environ` (codewhale's own initial environment), a hook's, and a
// second local process reading /proc/<exec pid>/environ while the session runs show each key
// variable blank or absent. The text is reversed so the output policy's redaction cannot hide
// a key that is there.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { execEnv, jsonLines, MODEL_OF, spawnCli, waitFor } from "../support/exec-harness.ts";
import { slow, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

const KEY_VARS = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "LOCAL_API_KEY"] as const;
const reverse = (text: string) => [...text].reverse().join("");
const SHOW_ENV = `env | rev; echo ---; tr '\\0' '\\n' < /proc/$PPID/environ | rev`;

describe("codewhale exec: what a child's environment holds", () => {
  it("keeps every provider key out of bash's env, hooks' env and /proc/$PPID/environ", async () => {
    const probe = execEnv(mock).home;
    const hookOut = join(probe, "hook-env.txt");
    const hook = `[[hooks.SessionStart]]\ncommand = ${JSON.stringify(`{ ${SHOW_ENV}; } > ${hookOut}`)}\n`;
    const setup = execEnv(mock, hook);
    // A base URL may hold a password (a proxy's); codewhale read it, so no child sees it.
    const proxyPassword = `pw${process.pid}x${Date.now().toString(36)}`;
    setup.env.OPENAI_BASE_URL = `http://ci-user:${proxyPassword}@127.0.0.1:9/v1`;
    mock.enqueue({
      blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command: SHOW_ENV } }],
    });
    mock.enqueue(slow({ blocks: [{ kind: "text", text: "reading ".repeat(20) }] }, 20));
    // Unconfined, the harder case: in the OS sandbox $PPID is its own init, not codewhale.
    const args = [
      "exec",
      "--model",
      MODEL_OF.anthropic,
      "--permission-mode",
      "bypass",
      "--sandbox",
      "off",
    ];
    const spawned = spawnCli([...args, "--output-format", "stream-json", "go"], setup, "");
    await waitFor(() => spawned.stdout().includes("message_delta"), 15_000);
    // A second local process (this test) reads exec's environment block while it runs.
    const outside = readFileSync(`/proc/${spawned.child.pid}/environ`, "latin1");
    const run = await spawned.done;
    assert.equal(run.status, 0, run.stderr);
    const result = jsonLines(run.stdout).find((line) => line.type === "tool/result")!;
    const [bashEnv, bashProc] = String(result.content).split("\n---\n");
    const [hookEnv, hookProc] = readFileSync(hookOut, "utf8").split("\n---\n");
    const views = [
      ["bash env", bashEnv!],
      ["bash /proc/$PPID/environ", bashProc!],
      ["hook env", hookEnv!],
      ["hook /proc/$PPID/environ", hookProc!],
    ] as const;
    for (const name of KEY_VARS) {
      const value = setup.env[name]!;
      for (const [what, text] of views) {
        assert.ok(!text.includes(reverse(value)), `${what} shows ${name}`);
        assert.ok(!text.includes(reverse(`${name}=`)) || what.includes("proc"), `${what}`);
      }
      // The block still lists the name, with its value blanked: the read did see the block.
      assert.ok(bashProc!.includes(reverse(`${name}=`)), `${name} in the block`);
      assert.ok(!outside.includes(value), `/proc/<exec pid>/environ shows ${name}`);
    }
    for (const [what, text] of views) {
      assert.ok(!text.includes(reverse(proxyPassword)), `${what} shows the base URL's password`);
      if (!what.includes("proc")) assert.ok(!text.includes(reverse("_BASE_URL=")), what);
    }
    assert.ok(!outside.includes(proxyPassword), "/proc/<exec pid>/environ shows the password");
    // What a tool still gets: the rest of the environment, unchanged.
    assert.ok(bashEnv!.includes(reverse(`CODEWHALE_HOME=${setup.home}`)), bashEnv);
    assert.ok(bashProc!.includes(reverse(`CODEWHALE_HOME=${setup.home}`)));
  });
});
