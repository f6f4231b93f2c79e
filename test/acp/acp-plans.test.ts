// Plan mode over `codewhale acp` (the SDK's own client): in the `plan` session mode the model's
// plan reaches the editor as a `session/request_permission` whose tool call carries the plan
// and whose options are approve (default mode), approve and accept edits, and keep planning;
// an approval is reported as `current_mode_update` and the model's next write of the same turn
// runs; keep planning leaves plan mode on. `/plan <description>` starts it with a prompt.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { type SharedAcp, useAcp } from "../support/acp-client.ts";
import { MODEL_OF } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
let shared: SharedAcp;

const PLAN = "# Greeting\n\n1. Write hello.txt";
const proposing = {
  blocks: [{ kind: "tool" as const, id: "toolu_p", name: "exit_plan", input: { plan: PLAN } }],
};
const writing = {
  blocks: [
    {
      kind: "tool" as const,
      id: "toolu_w",
      name: "write",
      input: { path: "hello.txt", content: "hello\n" },
    },
  ],
};

async function planningSession(): Promise<{ sessionId: string; workspace: string }> {
  const workspace = mkdtempSync(join(shared.setup.workspace, "ws-"));
  const sessionId = await shared.client.newSession(workspace);
  await shared.client.agent.request(acp.methods.agent.session.setMode, {
    sessionId,
    modeId: "plan",
  });
  return { sessionId, workspace };
}

const modeUpdates = (sessionId: string) =>
  shared.client
    .updates(sessionId)
    .flatMap((u) => (u.sessionUpdate === "current_mode_update" ? [u.currentModeId] : []));

describe("codewhale acp: plans", () => {
  shared = useAcp(mock, ["--model", MODEL_OF.anthropic]);

  it("the plan is the request's content with three options; approving with accept edits reports the mode and the write runs", async () => {
    mock.enqueue(proposing, writing, { blocks: [{ kind: "text", text: "done" }] });
    const requests: acp.RequestPermissionRequest[] = [];
    shared.client.answer = (request) => {
      requests.push(request);
      return { outcome: "selected", optionId: "approve_accept_edits" };
    };
    const { sessionId, workspace } = await planningSession();
    await shared.client.prompt(sessionId, "add a greeting");
    assert.equal(requests.length, 1, "the write asked nothing: accept-edits");
    assert.deepEqual(
      requests[0]?.options.map((option) => [option.optionId, option.kind]),
      [
        ["approve", "allow_once"],
        ["approve_accept_edits", "allow_always"],
        ["keep_planning", "reject_once"],
      ],
    );
    assert.deepEqual(requests[0]?.toolCall.content, [
      { type: "content", content: { type: "text", text: PLAN } },
    ]);
    assert.deepEqual(modeUpdates(sessionId), ["plan", "accept-edits"]);
    assert.ok(existsSync(join(workspace, "hello.txt")));
    assert.match(JSON.stringify(mock.requests.at(-2)?.body), /approved the plan/);
  });

  it("keep planning: the model reads it, plan mode stays on, nothing is written", async () => {
    mock.enqueue(proposing, { blocks: [{ kind: "text", text: "revising" }] });
    shared.client.answer = () => ({ outcome: "selected", optionId: "keep_planning" });
    const { sessionId, workspace } = await planningSession();
    await shared.client.prompt(sessionId, "add a greeting");
    assert.deepEqual(modeUpdates(sessionId), ["plan"]);
    assert.match(JSON.stringify(mock.requests.at(-1)?.body), /keep planning/);
    assert.ok(!existsSync(join(workspace, "hello.txt")));
  });

  it("/plan <description> switches to plan mode and sends the description as the prompt", async () => {
    mock.enqueue(proposing, { blocks: [{ kind: "text", text: "ok" }] });
    shared.client.answer = () => ({ outcome: "selected", optionId: "keep_planning" });
    const workspace = mkdtempSync(join(shared.setup.workspace, "ws-"));
    const sessionId = await shared.client.newSession(workspace);
    await shared.client.prompt(sessionId, "/plan add a greeting");
    assert.deepEqual(modeUpdates(sessionId), ["plan"]);
    const first = JSON.stringify(mock.requests.at(-2)?.body);
    assert.match(first, /add a greeting/);
    assert.match(first, /exit_plan/);
  });
});
