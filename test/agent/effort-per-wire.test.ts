// The reasoning effort through the real SDKs at the loopback mock, per wire format: Anthropic's
// `thinking: { type: "enabled", budget_tokens }`, the Responses `reasoning.effort`, Chat
// Completions' `reasoning_effort`; a `set_effort` applies from the next request (in the
// middle of a turn too), is logged as `session/effort` and is kept on resume; a provider
// without one (DeepSeek) is sent none, with one notice.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ProviderApi } from "../../src/providers/index.ts";
import { openMockAgent } from "../support/mock-agent.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { KINDS } from "../support/provider-env.ts";

const mock = useMockProvider();

type Body = {
  thinking?: { type: string; budget_tokens: number };
  max_tokens?: number;
  reasoning?: { effort: string };
  reasoning_effort?: string;
};

/** What a request body says of the effort, in one shape: the level, or the thinking budget. */
function effortOf(kind: ProviderApi, body: unknown): string | number | undefined {
  const b = body as Body;
  if (kind === "anthropic") {
    if (b.thinking) assert.equal(b.thinking.type, "enabled");
    return b.thinking?.budget_tokens;
  }
  return kind === "openai-responses" ? b.reasoning?.effort : b.reasoning_effort;
}

/** What each wire carries for high, low and minimal. */
const EXPECTED: Record<ProviderApi, { high: unknown; low: unknown; minimal: unknown }> = {
  anthropic: { high: 32_768, low: 4096, minimal: 1024 },
  "openai-responses": { high: "high", low: "low", minimal: "minimal" },
  // A Chat Completions service other than OpenAI's takes no `minimal`: low is sent.
  "openai-chat": { high: "high", low: "low", minimal: "low" },
};

function efforts(events: { type: string; effort?: string }[]): (string | undefined)[] {
  return events.filter((event) => event.type === "session/effort").map((event) => event.effort);
}

describe("the reasoning effort on the wire, per format", () => {
  for (const kind of KINDS) {
    it(`${kind}: [thinking] effort is sent; set_effort changes the next request, off sends none`, async () => {
      const toml = '[thinking]\neffort = "high"';
      const { agent, events } = await openMockAgent(mock, kind, { toml });
      const first = mock.requests.length;
      mock.enqueue({ blocks: [{ kind: "text", text: "thought hard" }] });
      await agent.submit("think hard");
      assert.equal(effortOf(kind, mock.requests[first]!.body), EXPECTED[kind].high);
      if (kind === "anthropic") {
        const body = mock.requests[first]!.body as Body;
        assert.ok((body.max_tokens ?? 0) > 32_768, "max_tokens leaves room for the answer");
      }
      agent.dispatch({ type: "set_effort", effort: "minimal" });
      mock.enqueue({ blocks: [{ kind: "text", text: "barely" }] });
      await agent.submit("quickly");
      assert.equal(effortOf(kind, mock.requests.at(-1)!.body), EXPECTED[kind].minimal);
      agent.dispatch({ type: "set_effort", effort: "off" });
      mock.enqueue({ blocks: [{ kind: "text", text: "no thought" }] });
      await agent.submit("now");
      assert.equal(effortOf(kind, mock.requests.at(-1)!.body), undefined);
      await agent.close();
      assert.deepEqual(efforts(events), ["high", "minimal", "off"]);
    });
  }

  // Not Anthropic's: a tool loop continued from a step without thinking may not turn it on.
  it("a change while a turn runs applies to that turn's next request", async () => {
    const { agent } = await openMockAgent(mock, "openai-responses");
    agent.bus.on("session/event", (event) => {
      if (event.type === "tool/call") agent.dispatch({ type: "set_effort", effort: "low" });
    });
    mock.enqueue({ blocks: [{ kind: "tool", id: "call_1", name: "echo", input: { text: "x" } }] });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const first = mock.requests.length;
    const outcome = await agent.submit("call echo");
    await agent.close();
    assert.equal(outcome.reason, "completed", outcome.error);
    assert.equal(effortOf("openai-responses", mock.requests[first]!.body), undefined);
    assert.equal(effortOf("openai-responses", mock.requests[first + 1]!.body), "low");
  });

  it("resume keeps the logged effort; --effort on resume switches it", async () => {
    const opened = await openMockAgent(mock, "openai-responses");
    opened.agent.dispatch({ type: "set_effort", effort: "medium" });
    mock.enqueue({ blocks: [{ kind: "text", text: "one" }] });
    await opened.agent.submit("first");
    const id = opened.agent.sessionId;
    await opened.agent.close();

    const resumed = await openMockAgent(mock, "openai-responses", {
      setup: opened.setup,
      resume: id,
    });
    assert.equal(resumed.agent.effort, "medium");
    mock.enqueue({ blocks: [{ kind: "text", text: "two" }] });
    await resumed.agent.submit("second");
    await resumed.agent.close();
    assert.equal(effortOf("openai-responses", mock.requests.at(-1)!.body), "medium");

    const switched = await openMockAgent(mock, "openai-responses", {
      setup: opened.setup,
      resume: id,
      effort: "high",
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "three" }] });
    await switched.agent.submit("third");
    await switched.agent.close();
    assert.equal(effortOf("openai-responses", mock.requests.at(-1)!.body), "high");
    assert.deepEqual(efforts(switched.agent.history()), ["medium", "high"]);
  });

  it("DeepSeek takes no reasoning effort: none is sent, and one notice says so", async () => {
    const toml = [
      "[providers.deepseek]",
      `base_url = "${mock.url}/v1"`,
      'api_key_env = "LOCAL_API_KEY"',
      "[thinking]",
      'effort = "high"',
    ].join("\n");
    const { agent, notices } = await openMockAgent(mock, "openai-chat", {
      toml,
      model: "deepseek/deepseek-chat",
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "fine" }] });
    await agent.submit("think");
    await agent.close();
    const body = mock.requests.at(-1)!.body as Body;
    assert.equal(body.reasoning_effort, undefined);
    assert.deepEqual(
      notices.filter((line) => /effort/.test(line)),
      ["deepseek takes no reasoning effort: effort high is not sent"],
    );
  });
});
