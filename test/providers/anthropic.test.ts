// The anthropic adapter through the real SDK against the loopback mock: streamed parts, the
// native content it keeps (signed and redacted thinking, tool_use), usage with cache tokens,
// and the request it sends (cache_control breakpoints, thinking budget, key header).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { streamAnthropic } from "../../src/providers/anthropic.ts";
import type { HistoryMessage } from "../../src/session/derive.ts";
import { startMockProvider, useMockProvider } from "../support/mock-provider/index.ts";
import {
  assistantFrom,
  collect,
  configFor,
  deltaText,
  makeRequest,
  messageOf,
  READ_TOOL,
} from "./helpers.ts";

describe("anthropic adapter", () => {
  const mock = useMockProvider();
  const run = (request = makeRequest()) =>
    collect(streamAnthropic(configFor("anthropic", mock), request));

  it("streams text deltas in order and ends with the native message", async () => {
    mock.enqueue({ blocks: [{ kind: "text", text: "Hello there, world!" }], chunkSize: 5 });
    const parts = await run();
    assert.equal(parts[0]?.type, "start");
    assert.equal(parts[0]?.type === "start" && parts[0].requestId?.startsWith("req_"), true);
    const deltas = parts.filter((p) => p.type === "delta");
    assert.deepEqual(
      deltas.map((p) => p.type === "delta" && p.delta),
      ["Hello", " ther", "e, wo", "rld!"],
    );
    const message = messageOf(parts);
    assert.deepEqual(message.content, [{ type: "text", text: "Hello there, world!" }]);
    assert.equal(message.stopReason, "end_turn");
    assert.equal(message.api, "anthropic");
    assert.equal(parts.at(-1)?.type, "message");
  });

  it("keeps thinking with its signature and redacted_thinking verbatim", async () => {
    mock.enqueue({
      blocks: [
        { kind: "thinking", text: "Let me think about it.", signature: "sig-abc123==" },
        { kind: "redacted_thinking", data: "opaque-redacted-data" },
        { kind: "text", text: "Done." },
      ],
    });
    const parts = await run();
    assert.equal(deltaText(parts, "thinking"), "Let me think about it.");
    assert.deepEqual(messageOf(parts).content, [
      { type: "thinking", thinking: "Let me think about it.", signature: "sig-abc123==" },
      { type: "redacted_thinking", data: "opaque-redacted-data" },
      { type: "text", text: "Done." },
    ]);
    // And the next request carries the blocks back exactly, redacted_thinking included.
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    const history: HistoryMessage[] = [
      { role: "user", text: "hello", seq: 1 },
      assistantFrom(messageOf(parts), "test", "model-a", 2),
      { role: "user", text: "again", seq: 3 },
    ];
    await run(makeRequest({ messages: history, thinking: { budgetTokens: 2048 } }));
    const sent = JSON.parse(mock.requests.at(-1)?.raw ?? "{}") as { messages: unknown[] };
    assert.deepEqual(sent.messages[1], { role: "assistant", content: messageOf(parts).content });
  });

  it("reassembles a tool call whose input streamed in fragments", async () => {
    const input = { path: "src/index.ts", lines: [1, 2, 3] };
    mock.enqueue({ blocks: [{ kind: "tool", id: "toolu_01", name: "read", input }] });
    const parts = await run();
    assert.ok(parts.filter((p) => p.type === "delta" && p.kind === "tool_input").length >= 3);
    const message = messageOf(parts);
    assert.deepEqual(message.toolCalls, [
      { id: "toolu_01", name: "read", arguments: JSON.stringify(input) },
    ]);
    assert.deepEqual(message.content, [{ type: "tool_use", id: "toolu_01", name: "read", input }]);
    assert.equal(message.stopReason, "tool_use");
  });

  it("maps usage including cache creation and cache read tokens", async () => {
    mock.enqueue({
      blocks: [{ kind: "text", text: "ok" }],
      usage: { input: 12, output: 34, cacheRead: 1000, cacheWrite: 200, reasoning: 7 },
    });
    const usage = messageOf(await run()).usage;
    assert.deepEqual(usage, {
      input: 12,
      output: 34,
      cache_read: 1000,
      cache_write: 200,
      reasoning: 7,
    });
  });

  it("puts cache_control on system, the last tool and the newest message, and asks for thinking", async () => {
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    await run(
      makeRequest({
        tools: [READ_TOOL, { ...READ_TOOL, name: "write" }],
        thinking: { budgetTokens: 2048 },
      }),
    );
    const request = mock.requests.at(-1);
    assert.equal(request?.auth !== null, true);
    assert.equal(request?.headers["x-api-key"], undefined);
    const body = request?.body as Record<string, unknown>;
    assert.deepEqual(body.system, [
      { type: "text", text: "You are a test.", cache_control: { type: "ephemeral" } },
    ]);
    const tools = body.tools as Record<string, unknown>[];
    assert.equal(tools[0]?.cache_control, undefined);
    assert.deepEqual(tools[1]?.cache_control, { type: "ephemeral" });
    assert.deepEqual(body.messages, [
      {
        role: "user",
        content: [{ type: "text", text: "hello", cache_control: { type: "ephemeral" } }],
      },
    ]);
    assert.deepEqual(body.thinking, { type: "enabled", budget_tokens: 2048 });
    assert.ok((body.max_tokens as number) > 2048);
    assert.equal(body.stream, true);
  });

  it("joins consecutive tool results and a following steering message into one user message", async () => {
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    const assistant = {
      role: "assistant" as const,
      api: "anthropic" as const,
      provider: "test",
      model: "model-a",
      content: [
        { type: "tool_use", id: "t1", name: "read", input: {} },
        { type: "tool_use", id: "t2", name: "read", input: {} },
      ],
      seq: 2,
    };
    await run(
      makeRequest({
        messages: [
          { role: "user", text: "go", seq: 1 },
          assistant,
          { role: "tool", call_id: "t1", name: "read", content: "one", is_error: false, seq: 3 },
          { role: "tool", call_id: "t2", name: "read", content: "two", is_error: true, seq: 4 },
          { role: "user", text: "also check tests", seq: 5, steering: true },
        ],
      }),
    );
    const messages =
      (mock.requests.at(-1)?.body as { messages: unknown[] } | undefined)?.messages ?? [];
    assert.equal(messages.length, 3);
    assert.deepEqual(messages[2], {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: "one" },
        { type: "tool_result", tool_use_id: "t2", content: "two", is_error: true },
        { type: "text", text: "also check tests", cache_control: { type: "ephemeral" } },
      ],
    });
  });
  it("leaves thinking off when a tool loop continues from a message that has no signed thinking", async () => {
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    const foreign = {
      role: "assistant" as const,
      api: "openai-chat" as const,
      provider: "test",
      model: "gpt-x",
      content: [
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call.1", type: "function", function: { name: "read", arguments: "{}" } },
          ],
        },
      ],
      seq: 2,
    };
    await run(
      makeRequest({
        thinking: { budgetTokens: 2048 },
        messages: [
          { role: "user", text: "go", seq: 1 },
          foreign,
          {
            role: "tool",
            call_id: "call.1",
            name: "read",
            content: "one",
            is_error: false,
            seq: 3,
          },
        ],
      }),
    );
    const body = mock.requests.at(-1)?.body as Record<string, unknown>;
    assert.equal(body.thinking, undefined);
    const raw = mock.requests.at(-1)?.raw ?? "";
    assert.ok(raw.includes('"tool_use_id":"call_1"') && raw.includes('"id":"call_1"'));
  });
});

describe("anthropic adapter: the SDK's console output", () => {
  it("prints nothing for a model the SDK calls deprecated (stderr stays one line per error)", async () => {
    const mock = await startMockProvider();
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      warnings.push(args);
    };
    try {
      mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
      const parts = await collect(
        streamAnthropic(configFor("anthropic", mock), makeRequest({ model: "claude-sonnet-4-5" })),
      );
      assert.equal(messageOf(parts).api, "anthropic");
      const body = mock.requests.at(-1)?.body as { model?: string } | undefined;
      assert.equal(body?.model, "claude-sonnet-4-5");
    } finally {
      console.warn = warn;
      await mock.close();
    }
    assert.deepEqual(warnings, []);
  });
});
