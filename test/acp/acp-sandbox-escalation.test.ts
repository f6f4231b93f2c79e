// Through `codewhale acp` and the SDK's own client, with real bubblewrap: a bash command the OS
// sandbox refused (a write outside the workspace) is offered to the editor as a second
// permission request, "run it again outside the sandbox", with allow once and reject only;
// allowed, the command runs again unconfined; rejected, it does not, and the result says so.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type * as acp from "@agentclientprotocol/sdk";
import { type SharedAcp, useAcp } from "../support/acp-client.ts";
import { MODEL_OF } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { outsideTmp, sandboxSkip } from "../support/sandbox.ts";

const mock = useMockProvider();
const outside = outsideTmp("cw-acp-esc-");

const skip = sandboxSkip;

let shared: SharedAcp;

/** Runs `touch outside/NAME` through bash; the editor allows the call, then answers `second`. */
async function touchOutside(name: string, second: "allow_once" | "reject_once") {
  mock.enqueue({
    blocks: [
      { kind: "tool", id: "toolu_1", name: "bash", input: { command: `touch ${outside}/${name}` } },
    ],
  });
  mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
  const requests: acp.RequestPermissionRequest[] = [];
  shared.client.answer = (request) => {
    requests.push(request);
    const kind = requests.length === 1 ? "allow_once" : second;
    const option = request.options.find((o) => o.kind === kind);
    assert.ok(option, `no ${kind} option`);
    return { outcome: "selected", optionId: option.optionId };
  };
  const sessionId = await shared.client.newSession(shared.setup.workspace);
  await shared.client.prompt(sessionId, "go");
  return { requests, updates: JSON.stringify(shared.client.updates(sessionId)) };
}

describe("codewhale acp: run again outside the sandbox", { skip }, () => {
  shared = useAcp(mock, ["--model", MODEL_OF.anthropic]);

  it("asks a second time after the sandbox refused, and runs the command unconfined once allowed", async () => {
    const { requests, updates } = await touchOutside("allowed", "allow_once");
    assert.equal(requests.length, 2);
    const offered = requests[1]!.options.map((option) => option.kind).sort();
    assert.deepEqual(offered, ["allow_once", "reject_once"]);
    assert.ok(existsSync(join(outside, "allowed")));
    assert.match(updates, /run again outside the sandbox, allowed by user/);
  });

  it("leaves the command refused when the editor rejects", async () => {
    const { requests, updates } = await touchOutside("rejected", "reject_once");
    assert.equal(requests.length, 2);
    assert.ok(!existsSync(join(outside, "rejected")));
    assert.match(updates, /not run again outside the sandbox/);
  });
});
