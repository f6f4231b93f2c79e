// End to end: the bash tool of `codewhale exec` runs its commands, foreground and background, in
// the OS sandbox (`[sandbox]`, docs/sandbox.md): a write outside the workspace is refused, and
// the result tells the model it was the sandbox; `--sandbox off` runs the same command unconfined.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { probeSandbox } from "../../src/runner/index.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
// Outside /tmp: the sandbox's /tmp is private, which would hide the path without the policy.
const outside = mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : "/tmp", "cw-exec-sbx-"));
after(() => rmSync(outside, { recursive: true, force: true }));

const probe = await probeSandbox();
if (!probe.available && process.env.CI === "true") {
  throw new Error(`bwrap must run under CI (no skip): ${probe.reason}`);
}
const skip = probe.available ? false : "bwrap cannot run here (CI=true makes this a failure)";

function bash(id: string, input: Record<string, unknown>) {
  mock.enqueue({ blocks: [{ kind: "tool", id, name: "bash", input }] });
}

async function session(...flags: string[]) {
  const setup = execEnv(mock);
  const args = ["--model", MODEL_OF.anthropic, "--permission-mode", "bypass", ...flags];
  const run = await runExec([...args, "--output-format", "stream-json", "go"], setup, "");
  assert.equal(run.status, 0, run.stderr);
  const lines = jsonLines(run.stdout).filter((line) => line.type === "tool/result");
  return { setup, results: lines.map((line) => String(line.content)), lines };
}

describe("codewhale exec: bash in the OS sandbox", { skip }, () => {
  it("refuses a foreground write outside the workspace and says it was the sandbox", async () => {
    bash("toolu_1", { command: `touch inside && touch ${outside}/fg` });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const { setup, results, lines } = await session();
    const receipt = lines[0]?.sandbox as Record<string, unknown> | undefined;
    assert.equal(receipt?.mode, "workspace-write");
    assert.equal(receipt?.network, "off");
    assert.match(String(receipt?.policy_hash), /^[0-9a-f]{16}$/);
    assert.match(results[0] ?? "", /Read-only file system/);
    assert.match(results[0] ?? "", /\[sandbox: .*refused writing .*\/fg/);
    assert.ok(existsSync(join(setup.workspace, "inside")));
    assert.ok(!existsSync(join(outside, "fg")));
  });

  it("runs a background command in it too", async () => {
    bash("toolu_1", { command: `touch ${outside}/bg; touch bg-done`, background: true });
    bash("toolu_2", {
      command: "for i in $(seq 100); do [ -e bg-done ] && break; sleep 0.1; done",
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const { setup } = await session();
    assert.ok(existsSync(join(setup.workspace, "bg-done")));
    assert.ok(!existsSync(join(outside, "bg")));
  });

  it("runs the same command unconfined with --sandbox off", async () => {
    bash("toolu_1", { command: `touch ${outside}/off` });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const { lines } = await session("--sandbox", "off");
    assert.ok(existsSync(join(outside, "off")));
    assert.deepEqual(lines[0]?.sandbox, { mode: "none", network: "on" }, "the receipt says so");
  });
});
