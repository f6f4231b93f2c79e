// A subagent over `codewhale acp` (the SDK's own client): the `task` call is one tool call
// whose updates carry the child's progress (each call the child makes, by its title) before
// its result, the child's answer; a child's call that asks reaches the editor labelled with it.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type * as acp from "@agentclientprotocol/sdk";
import { type SharedAcp, useAcp } from "../support/acp-client.ts";
import { MODEL_OF } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
let shared: SharedAcp;

describe("codewhale acp: subagents", () => {
  shared = useAcp(mock, ["--model", MODEL_OF.anthropic]);

  it("the task call's updates carry the child's calls, then its answer", async () => {
    mock.enqueue(
      {
        blocks: [
          {
            kind: "tool",
            id: "toolu_task",
            name: "task",
            input: { description: "count", prompt: "How many lines has notes.txt?" },
          },
        ],
      },
      { blocks: [{ kind: "tool", id: "toolu_read", name: "read", input: { path: "notes.txt" } }] },
      { blocks: [{ kind: "text", text: "It has 2 lines." }] },
      { blocks: [{ kind: "text", text: "Two." }] },
    );
    const workspace = mkdtempSync(join(shared.setup.workspace, "ws-"));
    writeFileSync(join(workspace, "notes.txt"), "a\nb\n");
    const sessionId = await shared.client.newSession(workspace);
    await shared.client.prompt(sessionId, "count my notes");
    const updates = shared.client
      .updates(sessionId)
      .filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_task");
    const texts = updates.map((u) =>
      u.sessionUpdate === "tool_call_update"
        ? (u.content ?? [])
            .map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : ""))
            .join("")
        : "",
    );
    assert.ok(
      texts.some((text) => text.includes("→ read notes.txt")),
      `a progress update names the child's read: ${JSON.stringify(texts)}`,
    );
    assert.ok(texts.some((text) => text.includes("It has 2 lines.")));
  });

  it("a child's call that asks is put to the editor labelled with the child; its answer runs it", async () => {
    mock.enqueue(
      {
        blocks: [
          {
            kind: "tool",
            id: "toolu_task",
            name: "task",
            input: { description: "say hi", prompt: "Print a greeting." },
          },
        ],
      },
      {
        blocks: [
          { kind: "tool", id: "toolu_bash", name: "bash", input: { command: "echo child-hi" } },
        ],
      },
      { blocks: [{ kind: "text", text: "Printed it." }] },
      { blocks: [{ kind: "text", text: "The helper printed it." }] },
    );
    const requests: acp.RequestPermissionRequest[] = [];
    shared.client.answer = (request) => {
      requests.push(request);
      return { outcome: "selected", optionId: "allow_once" };
    };
    const workspace = mkdtempSync(join(shared.setup.workspace, "ws-"));
    const sessionId = await shared.client.newSession(workspace);
    await shared.client.prompt(sessionId, "greet");
    assert.equal(requests.length, 1, "only the child's bash call asks");
    const { toolCall } = requests[0]!;
    assert.equal(toolCall.toolCallId, "toolu_task/toolu_bash");
    assert.match(toolCall.title ?? "", /echo child-hi \(subagent: say hi\)$/);
    const bashResult = JSON.stringify(mock.requests.at(-2)?.body);
    assert.match(bashResult, /child-hi\\n/, "the child's call ran");
    const closed = shared.client
      .updates(sessionId)
      .find(
        (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_task/toolu_bash",
      );
    assert.equal(closed?.sessionUpdate === "tool_call_update" && closed.status, "completed");
  });
});
