// web_search through the provider's own server tool, with real recorded streams (Anthropic's
// web_search_20250305 with citations, a Responses web_search_call with url_citation
// annotations; test/fixtures/wire/index.json names their sources) replayed byte for byte by the
// loopback mock: the tool is offered with the searches left, the blocks are logged and sent
// back as the wire requires (the mock checks every history), the session cap and the
// permission rules take the tool away, and a provider without a server tool is never offered it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EventOf, JsonValue } from "../../src/session/events.ts";
import { openMockAgent } from "../support/mock-agent.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { replayOf } from "../support/mock-provider/replay.ts";

const mock = useMockProvider();

type Body = {
  tools?: JsonValue[];
  messages?: JsonValue[];
  input?: JsonValue[];
  include?: string[];
};

function bodyOf(index: number): Body {
  return JSON.parse(mock.requests[index]?.raw ?? "{}") as Body;
}

function searchToolOf(body: Body): JsonValue | undefined {
  return (body.tools ?? []).find(
    (tool) =>
      typeof tool === "object" &&
      tool !== null &&
      !Array.isArray(tool) &&
      String(tool.type).startsWith("web_search"),
  );
}

const ANSWER = { blocks: [{ kind: "text" as const, text: "ok" }] };

describe("web_search through the provider's server tool", () => {
  it("anthropic: offers web_search_20250305 with the same max_uses after a search (the cached tool list holds), logs the blocks and sends them back verbatim", async () => {
    const { agent, events } = await openMockAgent(mock, "anthropic", { webSearch: true });
    mock.enqueue(replayOf("anthropic/vercel-web-search-citations"), ANSWER);
    const first = mock.requests.length;
    assert.equal((await agent.submit("tech news today?")).reason, "completed");
    assert.equal((await agent.submit("more")).reason, "completed");
    await agent.close();
    assert.deepEqual(searchToolOf(bodyOf(first)), {
      type: "web_search_20250305",
      name: "web_search",
      max_uses: 8,
    });
    const message = events.find(
      (e): e is EventOf<"assistant/message"> => e.type === "assistant/message",
    );
    const types = (message?.content ?? []).map((b) => (b as { type: string }).type);
    assert.deepEqual(types.slice(0, 2), ["server_tool_use", "web_search_tool_result"]);
    const second = bodyOf(first + 1);
    assert.deepEqual(searchToolOf(second), {
      type: "web_search_20250305",
      name: "web_search",
      max_uses: 8,
    });
    assert.deepEqual(second.messages?.[1], { role: "assistant", content: message?.content });
    assert.deepEqual(mock.violations, []);
  });

  it("openai-responses: offers the web_search tool with its sources included and sends the web_search_call items back", async () => {
    const { agent, events } = await openMockAgent(mock, "openai-responses", { webSearch: true });
    mock.enqueue(replayOf("responses/openai-web-search"), ANSWER);
    const first = mock.requests.length;
    assert.equal((await agent.submit("tech news today?")).reason, "completed");
    assert.equal((await agent.submit("more")).reason, "completed");
    await agent.close();
    const body = bodyOf(first);
    assert.deepEqual(searchToolOf(body), { type: "web_search" });
    assert.ok(body.include?.includes("web_search_call.action.sources"));
    const message = events.find(
      (e): e is EventOf<"assistant/message"> => e.type === "assistant/message",
    );
    const calls = (message?.content ?? []).filter(
      (item) => (item as { type?: string }).type === "web_search_call",
    );
    assert.equal(calls.length, 6);
    const sent = (bodyOf(first + 1).input ?? []).map((item) => JSON.stringify(item));
    for (const call of calls) assert.ok(sent.includes(JSON.stringify(call)));
    assert.deepEqual(mock.violations, []);
  });

  it("offers max_uses below the per-request 8 only over the session's last searches", async () => {
    const toml = "[web.search]\nmax_per_session = 9\n";
    const { agent } = await openMockAgent(mock, "anthropic", { toml, webSearch: true });
    mock.enqueue(replayOf("anthropic/vercel-web-search-citations"), ANSWER);
    const first = mock.requests.length;
    await agent.submit("tech news today?");
    await agent.submit("more");
    await agent.close();
    const uses = [first, first + 1].map(
      (i) => (searchToolOf(bodyOf(i)) as { max_uses?: number } | undefined)?.max_uses,
    );
    assert.deepEqual(uses, [8, 8]);
  });

  it("offers no server search to a session given only its own tools", async () => {
    const { agent } = await openMockAgent(mock, "anthropic");
    mock.enqueue(ANSWER);
    const first = mock.requests.length;
    await agent.submit("news?");
    await agent.close();
    assert.equal(searchToolOf(bodyOf(first)), undefined);
  });

  it("stops offering the tool once the session's searches reach max_per_session", async () => {
    const toml = "[web.search]\nmax_per_session = 1\n";
    const { agent } = await openMockAgent(mock, "anthropic", { toml, webSearch: true });
    mock.enqueue(replayOf("anthropic/vercel-web-search-citations"), ANSWER);
    const first = mock.requests.length;
    await agent.submit("tech news today?");
    await agent.submit("more");
    await agent.close();
    assert.deepEqual(searchToolOf(bodyOf(first)), {
      type: "web_search_20250305",
      name: "web_search",
      max_uses: 1,
    });
    assert.equal(searchToolOf(bodyOf(first + 1)), undefined);
  });

  for (const [rule, toml] of [
    ["a deny rule", '[permissions]\ndeny = ["web_search"]\n'],
    ["an ask rule", '[permissions]\nask = ["web_search"]\n'],
    ["provider_tool = false", "[web.search]\nprovider_tool = false\n"],
  ] as const) {
    it(`offers no server search under ${rule}`, async () => {
      const { agent } = await openMockAgent(mock, "openai-responses", { toml, webSearch: true });
      mock.enqueue(ANSWER);
      const first = mock.requests.length;
      await agent.submit("news?");
      await agent.close();
      assert.equal(searchToolOf(bodyOf(first)), undefined);
    });
  }

  it("offers nothing to a Chat Completions provider, which has no server tool", async () => {
    const { agent } = await openMockAgent(mock, "openai-chat", { webSearch: true });
    mock.enqueue(ANSWER);
    const first = mock.requests.length;
    await agent.submit("news?");
    await agent.close();
    assert.equal(searchToolOf(bodyOf(first)), undefined);
  });
});
