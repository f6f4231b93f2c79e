// Streams recorded from real services (test/fixtures/wire, sources in index.json) replayed byte
// for byte through the real adapters and SDKs: the text, thinking, tool calls, usage and stop
// reason each yields, and the assistant message sent back, as returned, in the next request.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { streamFor } from "../../src/providers/index.ts";
import type { ModelToolCall, ProviderApi, StreamPart } from "../../src/providers/types.ts";
import type { HistoryMessage } from "../../src/session/derive.ts";
import type { JsonValue, Usage } from "../../src/session/events.ts";
import { replayOf, useMockProvider, WIRE_FIXTURES } from "../support/mock-provider/index.ts";
import {
  assistantFrom,
  collect,
  configFor,
  deltaText,
  makeRequest,
  messageOf,
  toolResult,
} from "./helpers.ts";

interface Expected {
  /** The whole text, or its first characters when `…` ends it. */
  text?: string;
  thinking?: string;
  calls?: ModelToolCall[];
  usage?: Partial<Usage>;
  stop?: string;
  /** The id of the one call marked cut (stopped at the output limit); no other is. */
  cut?: string;
  /** The Chat Completions `refusal` kept on the stored message. */
  refusal?: string;
  /** The tool input streamed as deltas, all calls together. */
  toolInput?: string;
  /** The stream ends in an error part whose message contains this. */
  error?: string;
}

const WEATHER_SF = '{"location": "San Francisco"}';

/** What each recorded stream must yield; every file in index.json has a row. */
export const EXPECTED: Record<string, Expected> = {
  "anthropic/sdk-basic-text": {
    text: "Hello there!",
    stop: "end_turn",
    usage: { input: 11, output: 6 },
  },
  "anthropic/sdk-tool-use": {
    text: "I'll check the current weather in Paris for you.",
    calls: [
      {
        id: "toolu_01NRLabsLyVHZPKxbKvkfSMn",
        name: "get_weather",
        arguments: '{"location": "Paris"}',
      },
    ],
    stop: "tool_use",
    usage: { input: 377, output: 65 },
  },
  "anthropic/sdk-incomplete-partial-json": {
    text: "I'll create a comprehensive tax guide…",
    // Stopped at max_tokens inside the call's arguments: marked cut, so the loop never runs it.
    cut: "toolu_01EKqbqmZrGRXy18eN7m9kvY",
    stop: "max_tokens",
    usage: { input: 450, output: 124 },
  },
  "anthropic/sdk-refusal": { text: "", stop: "refusal", usage: { input: 20, output: 0 } },
  "anthropic/vercel-text": {
    text: "Hello! I'm doing well…",
    stop: "end_turn",
    usage: { input: 12, output: 30 },
  },
  "anthropic/vercel-tool-no-args": {
    text: "I'll update the issue list for you.",
    calls: [{ id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", name: "updateIssueList", arguments: "{}" }],
    stop: "tool_use",
  },
  "anthropic/vercel-thinking": {
    text: "925 ÷ 5 = 185",
    thinking: "The previous result was 925.…",
    stop: "end_turn",
    usage: { input: 69, output: 53 },
  },
  "anthropic/vercel-web-search-citations": {
    text: "Based on my search results…",
    calls: [],
    stop: "end_turn",
    usage: { input: 15665, output: 795 },
  },
  "anthropic/vercel-refusal": { text: "", stop: "refusal", usage: { input: 18, output: 5 } },
  "responses/openai-reasoning-encrypted": {
    thinking: "**Calculating step-by-step using calculator**…",
    calls: [
      {
        id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
        name: "calculator",
        arguments: '{"a":12,"b":7,"op":"add"}',
      },
    ],
    stop: "completed",
    usage: { input: 134, output: 28 },
  },
  "responses/openai-web-search": {
    text: "I checked today’s tech headlines…",
    stop: "completed",
    usage: { input: 27361, output: 4416, cache_read: 3712, reasoning: 3712 },
  },
  "responses/openai-custom-tool": {
    text: "",
    // A custom (free-form) tool call: its raw input, marked custom so the loop answers it.
    calls: [
      {
        id: "call_custom_sql_001",
        name: "write_sql",
        arguments: "SELECT * FROM users WHERE age > 25",
        custom: true,
      },
    ],
    toolInput: "SELECT * FROM users WHERE age > 25",
    stop: "completed",
    usage: { input: 50, output: 20 },
  },
  "responses/openai-error": { error: "insufficient_quota" },
  "responses/lmstudio-basic": { text: "## The Festival of Whispering Leaves…", stop: "completed" },
  "responses/lmstudio-tool-call": {
    text: "I'll get the current weather information for San Francisco for you.",
    thinking: "The user is asking for the weather in San Francisco.…",
    calls: [
      { id: "call_2025306790300011", name: "weather", arguments: '{"location":"San Francisco"}' },
    ],
    stop: "completed",
    usage: { input: 180, output: 61, cache_read: 2, reasoning: 48 },
  },
  "responses/xai-reasoning": {
    text: "### Overview of Sonoran Cuisine…",
    thinking: 'First, the question is: "What is specifically notable…',
    stop: "completed",
    usage: { input: 24, output: 923, cache_read: 192, reasoning: 323 },
  },
  "chat/openai-text": {
    text: "I'm unable to provide real-time weather updates.…",
    stop: "stop",
    usage: { input: 14, output: 30 },
  },
  "chat/openai-length": { text: '{"', stop: "length", usage: { input: 79, output: 1 } },
  "chat/openai-refusal-field": {
    text: "",
    refusal: "I'm sorry, I can't assist with that request.",
    stop: "stop",
    usage: { input: 79, output: 11 },
  },
  "chat/openai-tool": {
    calls: [
      {
        id: "call_c91SqDXlYFuETYv8mUHzz6pp",
        name: "GetWeatherArgs",
        arguments: '{"city":"Edinburgh","country":"UK","units":"c"}',
      },
    ],
    stop: "tool_calls",
  },
  "chat/openai-parallel-tools": {
    calls: [
      {
        id: "call_JMW1whyEaYG438VE1OIflxA2",
        name: "GetWeatherArgs",
        arguments: '{"city": "Edinburgh", "country": "GB", "units": "c"}',
      },
      {
        id: "call_DNYTawLBoN8fj3KN6qU9N1Ou",
        name: "get_stock_price",
        arguments: '{"ticker": "AAPL", "exchange": "NASDAQ"}',
      },
    ],
    stop: "tool_calls",
    usage: { input: 149, output: 60 },
  },
  "chat/openai-strict-tool": {
    calls: [
      {
        id: "call_CTf1nWJLqSeRgDqaCG27xZ74",
        name: "get_weather",
        arguments: '{"city":"San Francisco","state":"CA"}',
      },
    ],
    stop: "tool_calls",
  },
  "chat/openai-nonstrict-tool": {
    calls: [
      {
        id: "call_4XzlGBLtUe9dy3GVNV4jhq7h",
        name: "get_weather",
        arguments: '{"city":"New York City"}',
      },
    ],
    stop: "tool_calls",
  },
  "chat/mistral-tool-no-index": {
    calls: [{ id: "gSIMJiOkT", name: "weather", arguments: WEATHER_SF }],
    stop: "tool_calls",
    usage: { input: 124, output: 22 },
  },
  "chat/vllm-both-reasoning-fields": {
    thinking: "好的，用户",
    error: "stream ended before finish_reason",
  },
  "chat/mistral-text": {
    text: "Hello, world! This is a test response.",
    stop: "stop",
    usage: { input: 13, output: 8 },
  },
  "chat/glm-incremental-tool": {
    calls: [
      {
        id: "chatcmpl-tool-9f149c74c42f265b",
        name: "webSearchTool",
        arguments: '{"query": "current Berlin weather"}',
      },
    ],
    stop: "tool_calls",
    usage: { input: 171 - 128, output: 14, cache_read: 128 },
  },
  "chat/groq-tool": {
    calls: [{ id: "tk85n1k4m", name: "weather", arguments: "{}" }],
    stop: "tool_calls",
    usage: { input: 210, output: 15 },
  },
  "chat/groq-reasoning": {
    text: 'The word **"strawberry"**…',
    thinking: "Okay, let me try to figure out…",
    stop: "stop",
    usage: { input: 17, output: 1107, reasoning: 963 },
  },
  "chat/xai-tool-reasoning": {
    thinking: "First, the user is",
    calls: [{ id: "call_55117580", name: "weather", arguments: '{"location":"San Francisco"}' }],
    stop: "tool_calls",
    usage: { input: 1, output: 26, cache_read: 290, reasoning: 196 },
  },
  "chat/deepseek-tool-reasoning": {
    thinking: "The user is asking for the weather in San Francisco.…",
    calls: [{ id: "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", name: "weather", arguments: WEATHER_SF }],
    stop: "tool_calls",
    usage: { input: 19, output: 83, cache_read: 320, reasoning: 39 },
  },
  "chat/deepseek-length": {
    text: "## **Holiday Name:** Starlight Remembrance…",
    stop: "length",
    usage: { input: 13, output: 400 },
  },
  "chat/alibaba-tool": {
    calls: [{ id: "call_eee11723464a4b9eb8cee71d", name: "weather", arguments: WEATHER_SF }],
    stop: "tool_calls",
    usage: { input: 295, output: 22 },
  },
  "chat/perplexity-citations": {
    text: "The current population of **[2][3]",
    stop: "stop",
    usage: { input: 10, output: 336 },
  },
  "chat/ollama-parallel-tools": {
    calls: [
      { id: "call_wteop8bt", name: "run_command", arguments: '{"command":"ls"}' },
      { id: "call_rk2xye1l", name: "run_command", arguments: '{"command":"ls -l"}' },
    ],
    stop: "tool_calls",
  },
  "chat/llamacpp-reasoning-excerpt": {
    thinking: " it handles",
    error: "stream ended before finish_reason",
  },
};

const API_OF: Record<string, ProviderApi> = {
  anthropic: "anthropic",
  chat: "openai-chat",
  responses: "openai-responses",
};

interface IndexEntry {
  file: string;
  wire: ProviderApi;
}
const index = JSON.parse(readFileSync(new URL("index.json", WIRE_FIXTURES), "utf8")) as {
  streams: IndexEntry[];
};

function matches(actual: string, expected: string): boolean {
  return expected.endsWith("…") ? actual.startsWith(expected.slice(0, -1)) : actual === expected;
}

/** The text the stored native message holds, per wire format. */
function storedText(api: ProviderApi, content: JsonValue[]): string {
  const texts: string[] = [];
  for (const item of content) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) continue;
    if (api === "anthropic" && item.type === "text") texts.push(String(item.text));
    if (api === "openai-chat" && typeof item.content === "string") texts.push(item.content);
    if (api === "openai-responses" && item.type === "message" && Array.isArray(item.content)) {
      for (const part of item.content) {
        if (typeof part === "object" && part !== null && !Array.isArray(part) && "text" in part)
          texts.push(String(part.text));
      }
    }
  }
  return texts.join("");
}

/** The native history items of a request body: messages or Responses input. */
function historyItems(api: ProviderApi, raw: string): JsonValue[] {
  const body = JSON.parse(raw) as { messages?: JsonValue[]; input?: JsonValue[] };
  if (api === "openai-responses") return body.input ?? [];
  if (api === "openai-chat") return body.messages ?? [];
  return (body.messages ?? []).flatMap((message) =>
    typeof message === "object" &&
    message !== null &&
    !Array.isArray(message) &&
    message.role === "assistant"
      ? ((message.content as JsonValue[]) ?? [])
      : [],
  );
}

describe("recorded Anthropic server tools and citations", () => {
  const mock = useMockProvider();

  it("keeps each citations_delta on its text block and sends the blocks back verbatim", async () => {
    mock.enqueue(replayOf("anthropic/vercel-web-search-citations"));
    const config = configFor("anthropic", mock);
    const message = messageOf(await collect(streamFor("anthropic")(config, makeRequest())));
    const blocks = message.content as Array<Record<string, JsonValue>>;
    const cited = blocks.filter((b) => b.type === "text" && Array.isArray(b.citations));
    const citations = cited.flatMap((b) => b.citations as JsonValue[]);
    assert.equal(citations.length, 14);
    assert.deepEqual(
      blocks.map((b) => b.type).filter((t) => t !== "text"),
      ["server_tool_use", "web_search_tool_result"],
    );
    assert.deepEqual(blocks[0]?.input, { query: "tech news today September 26 2025" });
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    const history: HistoryMessage[] = [
      { role: "user", text: "news?", seq: 1 },
      assistantFrom(message, "test", "model-a", 2),
      { role: "user", text: "more", seq: 3 },
    ];
    await collect(streamFor("anthropic")(config, makeRequest({ messages: history })));
    const sent = JSON.parse(mock.requests.at(-1)?.raw ?? "{}") as { messages: JsonValue[] };
    assert.deepEqual(sent.messages[1], { role: "assistant", content: message.content });
  });
});

describe("recorded provider streams", () => {
  const mock = useMockProvider();

  it("has an expectation for every stream in the index, and a file for every entry", () => {
    assert.deepEqual(
      index.streams.map((entry) => entry.file.replace(/\.sse$/, "")).sort(),
      Object.keys(EXPECTED).sort(),
    );
    for (const entry of index.streams)
      assert.equal(API_OF[entry.file.split("/")[0] ?? ""], entry.wire);
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    const api = API_OF[name.split("/")[0] ?? ""] as ProviderApi;
    it(`${name}: replayed through the ${api} adapter`, async () => {
      mock.enqueue(replayOf(name));
      const config = configFor(api, mock);
      const parts = await collect(streamFor(api)(config, makeRequest()));
      checkParts(api, parts, expected);
      const message = parts.find((part) => part.type === "message");
      if (message?.type !== "message") return;
      // The next request carries the assistant message exactly as the provider returned it.
      const history: HistoryMessage[] = [
        { role: "user", text: "hello", seq: 1 },
        assistantFrom(message, "test", "model-a", 2),
        ...message.toolCalls.map((call, i) => toolResult(call.id, "done", 3 + i)),
        { role: "user", text: "go on", seq: 10 },
      ];
      mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
      const next = await collect(streamFor(api)(config, makeRequest({ messages: history })));
      assert.equal(next.at(-1)?.type, "message");
      const sent = historyItems(api, mock.requests.at(-1)?.raw ?? "{}");
      for (const item of message.content)
        assert.ok(
          sent.some((s) => JSON.stringify(s) === JSON.stringify(item)),
          `sent back verbatim: ${JSON.stringify(item).slice(0, 120)}`,
        );
    });
  }
});

function checkParts(api: ProviderApi, parts: StreamPart[], expected: Expected): void {
  const text = deltaText(parts, "text");
  const thinking = deltaText(parts, "thinking");
  if (expected.toolInput !== undefined)
    assert.equal(deltaText(parts, "tool_input"), expected.toolInput);
  if (expected.text !== undefined)
    assert.ok(matches(text, expected.text), `text: ${JSON.stringify(text.slice(0, 80))}`);
  if (expected.thinking !== undefined)
    assert.ok(
      matches(thinking, expected.thinking),
      `thinking: ${JSON.stringify(thinking.slice(0, 80))}`,
    );
  const last = parts.at(-1);
  if (expected.error !== undefined) {
    assert.equal(last?.type, "error");
    if (last?.type === "error")
      assert.ok(last.error.message.includes(expected.error), last.error.message);
    return;
  }
  assert.equal(last?.type, "message", JSON.stringify(last).slice(0, 300));
  if (last?.type !== "message") return;
  assert.equal(storedText(api, last.content), text, "the stored message holds the streamed text");
  if (expected.calls !== undefined) assert.deepEqual(last.toolCalls, expected.calls);
  const cut = last.toolCalls.filter((call) => call.cut).map((call) => call.id);
  assert.deepEqual(cut, expected.cut ? [expected.cut] : [], "calls cut at the output limit");
  if (expected.refusal !== undefined) {
    const [message] = last.content as Array<Record<string, JsonValue>>;
    assert.equal(message?.refusal, expected.refusal);
  }
  if (expected.stop !== undefined) assert.equal(last.stopReason, expected.stop);
  for (const [key, value] of Object.entries(expected.usage ?? {}))
    assert.equal(last.usage[key as keyof Usage], value, `usage.${key}`);
}
