// A subagent over `codewhale acp` (the SDK's own client): the `task` call is one tool call
// whose updates carry the child's progress (each call the child makes, by its title) before
// its result, the child's answer.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
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
});
