// A call the model is still writing, through `codewhale acp` with the SDK's own client: a
// `tool_call` (pending, named by its tool) as soon as the call begins, `tool_call_update`s
// whose content follows its input as it grows, then the whole call (title, raw input,
// locations) before the permission request; a call cut off with its stream ends as failed.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type * as acp from "@agentclientprotocol/sdk";
import { asShown, spawnAcp } from "../support/acp-client.ts";
import { execEnv, MODEL_OF } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const MODEL = ["--model", MODEL_OF.anthropic];

const content = `${Array.from({ length: 30 }, (_, n) => `row ${n + 1}`).join("\n")}\n`;

/** The text of an update's first content block, or undefined. */
function textOf(update: acp.SessionUpdate): string | undefined {
  if (update.sessionUpdate !== "tool_call_update" && update.sessionUpdate !== "tool_call") return;
  const [first] = update.content ?? [];
  return first?.type === "content" && first.content.type === "text"
    ? first.content.text
    : undefined;
}

describe("codewhale acp: a tool call while the model writes it", () => {
  it("is a pending tool_call at once, updated as its input grows, then the whole call", async () => {
    const setup = execEnv(mock);
    // Slow enough that each piece of the input arrives on its own.
    mock.enqueue({
      blocks: [
        { kind: "tool", id: "toolu_s1", name: "write", input: { path: "notes.md", content } },
      ],
      delayMs: 40,
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "written" }] });
    const client = spawnAcp(setup, MODEL);
    try {
      await client.initialize();
      const sessionId = await client.newSession(setup.workspace);
      assert.equal((await client.prompt(sessionId, "write notes")).stopReason, "end_turn");
      const updates = client
        .updates(sessionId)
        .filter((u) => "toolCallId" in u && u.toolCallId === "toolu_s1");
      const [first] = updates;
      assert.ok(first?.sessionUpdate === "tool_call", "the call opens with its tool_call");
      assert.equal(first.status, "pending");
      assert.equal(first.title, "write");
      assert.equal(first.kind, "edit");
      assert.equal(first.rawInput, undefined, "nothing of the input yet");
      // The mock streams the arguments in three pieces: the content grows with them.
      const wholeAt = updates.findIndex(
        (u) => u.sessionUpdate === "tool_call_update" && u.rawInput,
      );
      const streamed = updates.slice(1, wholeAt).map((u) => textOf(u) ?? "");

      assert.ok(streamed.length >= 3, `an update per piece: ${JSON.stringify(streamed)}`);
      assert.ok(
        streamed.some((text) => /row 1\b/.test(text) || /"path"/.test(text)),
        "an early update shows the input's beginning",
      );
      assert.ok(!streamed[0]?.includes("row 30"), "the first update shows only part of it");
      assert.match(streamed.at(-1) ?? "", /row 30/, "the last shows its end");
      assert.ok(
        streamed.every((text) => text.split("\n").length <= 22),
        "each shows at most its last lines",
      );
      const whole = updates[wholeAt];
      assert.ok(whole?.sessionUpdate === "tool_call_update");
      assert.deepEqual(whole.rawInput, { path: "notes.md", content });
      assert.deepEqual(whole.locations, [{ path: join(setup.workspace, "notes.md") }]);
      assert.equal(whole.status, undefined, "still pending: the status is not repeated");
      const shown = asShown(client.updates(sessionId)).find((u) => u.sessionUpdate === "tool_call");
      assert.ok(shown?.sessionUpdate === "tool_call");
      assert.equal(shown.title, "write notes.md");
      const permission = client.seen.findIndex((item) => item.kind === "permission");
      const wholeSeen = client.seen.findIndex(
        (item) => item.kind === "update" && item.update === whole,
      );
      assert.ok(
        wholeSeen >= 0 && wholeSeen < permission,
        "the whole call before the permission request",
      );
      assert.equal(readFileSync(join(setup.workspace, "notes.md"), "utf8"), content);
    } finally {
      assert.equal(await client.close(), 0, client.stderr());
    }
  });

  it("a call whose stream is cut while it is written ends failed; the retry's call runs", async () => {
    const setup = execEnv(mock);
    const call = (id: string) => ({
      kind: "tool" as const,
      id,
      name: "write",
      input: { path: "cut.md", content },
    });
    // message_start, content_block_start, one piece of the input, then the socket is cut.
    mock.enqueue({ blocks: [call("toolu_cut")], cutAfterEvents: 3 });
    mock.enqueue({ blocks: [call("toolu_again")] });
    mock.enqueue({ blocks: [{ kind: "text", text: "written" }] });
    const client = spawnAcp(setup, MODEL);
    try {
      await client.initialize();
      const sessionId = await client.newSession(setup.workspace);
      assert.equal((await client.prompt(sessionId, "write it")).stopReason, "end_turn");
      const statuses = (id: string) =>
        client
          .updates(sessionId)
          .flatMap((u) =>
            "toolCallId" in u && u.toolCallId === id && u.status
              ? [`${u.sessionUpdate}:${u.status}`]
              : [],
          );
      assert.deepEqual(statuses("toolu_cut"), ["tool_call:pending", "tool_call_update:failed"]);
      assert.deepEqual(statuses("toolu_again"), [
        "tool_call:pending",
        "tool_call_update:in_progress",
        "tool_call_update:completed",
      ]);
    } finally {
      assert.equal(await client.close(), 0, client.stderr());
    }
  });
});
