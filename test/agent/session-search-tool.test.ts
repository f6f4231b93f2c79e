// The model's session_search tool, through the loopback mock: it finds what an earlier session
// of this project said, with its session id, never a session of another project (scope
// "project", the default), finds both with scope "all", and is not offered with scope "off".
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { EventOf, JsonValue } from "../../src/session/events.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { openMockAgent } from "../support/mock-agent.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const ANSWER = { blocks: [{ kind: "text" as const, text: "noted" }] };
const SEARCH = {
  blocks: [
    { kind: "tool" as const, id: "call_s", name: "session_search", input: { query: "flamingos" } },
  ],
};

function toolNames(index: number): string[] {
  const body = JSON.parse(mock.requests[index]?.raw ?? "{}") as { tools?: JsonValue[] };
  return (body.tools ?? []).map((tool) => {
    const t = tool as { name?: string; function?: { name: string } };
    return t.function?.name ?? t.name ?? "";
  });
}

/** A session of another project that mentions the flamingos too. */
function otherProjectSession(home: string): string {
  const writer = SessionWriter.create(join(home, "sessions"), {
    cwd: "/somewhere/else",
    version: "test",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    config_fingerprint: "0".repeat(64),
  });
  writer.append({ type: "user/message", text: "the other project's flamingos" });
  writer.close();
  return writer.id;
}

async function searchAfterEarlierSession(toml: string) {
  mock.enqueue(ANSWER);
  const first = await openMockAgent(mock, "anthropic", { tools: "builtin", toml });
  await first.agent.submit("remember: the retry policy is fifteen flamingos");
  const earlier = first.agent.sessionId;
  await first.agent.close();
  const other = otherProjectSession(first.setup.home);
  mock.enqueue(SEARCH);
  mock.enqueue(ANSWER);
  const second = await openMockAgent(mock, "anthropic", { tools: "builtin", setup: first.setup });
  await second.agent.submit("what did we decide about retries?");
  await second.agent.close();
  const result = second.events.find(
    (e): e is EventOf<"tool/result"> => e.type === "tool/result" && e.call_id === "call_s",
  );
  return { earlier, other, result };
}

describe("the session_search tool", () => {
  it("returns this project's earlier session with its id, never another project's", async () => {
    const { earlier, other, result } = await searchAfterEarlierSession("");
    assert.ok(result, "the search ran");
    assert.equal(result.is_error, false, result.content);
    assert.match(result.content, new RegExp(`session ${earlier} seq \\d+`));
    assert.match(result.content, /fifteen flamingos/);
    assert.ok(!result.content.includes(other), result.content);
  });

  it('with scope "all" finds every project\'s sessions', async () => {
    const { earlier, other, result } = await searchAfterEarlierSession('[search]\nscope = "all"');
    assert.ok(result?.content.includes(earlier) && result.content.includes(other), result?.content);
  });

  it('is not offered with scope "off"', async () => {
    mock.enqueue(ANSWER);
    const off = await openMockAgent(mock, "anthropic", {
      tools: "builtin",
      toml: '[search]\nscope = "off"',
    });
    const before = mock.requests.length;
    await off.agent.submit("hello");
    await off.agent.close();
    assert.ok(!toolNames(before).includes("session_search"));
    assert.ok(toolNames(before).includes("read"));
  });
});
