// The provider's web search through `codewhale acp` with the SDK's own client: a recorded
// Anthropic stream (web_search_20250305 with citations) becomes a completed `tool_call` of kind
// `search` titled with its query, its results as links, and a closing chunk listing the sources
// the answer cites; `session/load` replays the same updates.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type * as acp from "@agentclientprotocol/sdk";
import { spawnAcp } from "../support/acp-client.ts";
import { execEnv, MODEL_OF } from "../support/exec-harness.ts";
import { replayOf, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

function textOf(update: acp.SessionUpdate): string {
  if (update.sessionUpdate === "tool_call") {
    const [first] = update.content ?? [];
    return first?.type === "content" && first.content.type === "text" ? first.content.text : "";
  }
  if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text")
    return update.content.text;
  return "";
}

describe("codewhale acp: the provider's web search", () => {
  it("is a completed search tool_call with its results, and the cited sources close the answer", async () => {
    const setup = execEnv(mock);
    mock.enqueue(replayOf("anthropic/vercel-web-search-citations"));
    const client = spawnAcp(setup, ["--model", MODEL_OF.anthropic]);
    try {
      await client.initialize();
      const sessionId = await client.newSession(setup.workspace);
      assert.equal((await client.prompt(sessionId, "tech news?")).stopReason, "end_turn");
      const updates = client.updates(sessionId);
      const search = updates.find((u) => u.sessionUpdate === "tool_call" && u.kind === "search");
      assert.ok(search?.sessionUpdate === "tool_call");
      assert.equal(search.title, 'web_search "tech news today September 26 2025" · 10 results');
      assert.equal(search.status, "completed");
      assert.deepEqual(search.rawInput, { query: "tech news today September 26 2025" });
      assert.equal(textOf(search).split("\n").length, 10);
      assert.match(textOf(search), /^- \[[^\]]+\]\(https:\/\/[^)]+\)$/m);
      const chunks = updates.filter((u) => u.sessionUpdate === "agent_message_chunk");
      assert.match(textOf(chunks.at(-1) as acp.SessionUpdate), /^\n\nSources:\n1\. \[/);
    } finally {
      await client.close();
    }
  });
});
