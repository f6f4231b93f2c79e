// The openai-chat adapter through the real SDK against the loopback mock: streamed parts, the
// one native message it keeps (reasoning_content or reasoning as thinking, tool_calls), usage
// with cached tokens, and the request it sends (stream_options.include_usage, tools).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { streamOpenAIChat } from "../../src/providers/openai-chat.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { collect, configFor, deltaText, makeRequest, messageOf, READ_TOOL } from "./helpers.ts";

describe("openai-chat adapter", () => {
  const mock = useMockProvider();
  const run = (request = makeRequest()) =>
    collect(streamOpenAIChat(configFor("openai-chat", mock), request));

  it("streams text deltas in order and ends with the native message", async () => {
    mock.enqueue({ blocks: [{ kind: "text", text: "Hello there, world!" }], chunkSize: 5 });
    const parts = await run();
    assert.equal(parts[0]?.type === "start" && parts[0].requestId?.startsWith("req_"), true);
    assert.deepEqual(
      parts.filter((p) => p.type === "delta").map((p) => p.type === "delta" && p.delta),
      ["Hello", " ther", "e, wo", "rld!"],
    );
    const message = messageOf(parts);
    assert.deepEqual(message.content, [{ role: "assistant", content: "Hello there, world!" }]);
    assert.equal(message.stopReason, "stop");
  });

  for (const field of ["reasoning_content", "reasoning"] as const) {
    it(`keeps a ${field} field from a compatible server as thinking`, async () => {
      mock.enqueue({
        blocks: [
          { kind: "thinking", text: "Pondering.", signature: "unused" },
          { kind: "text", text: "Answer." },
        ],
        chatReasoningField: field,
      });
      const parts = await run();
      assert.equal(deltaText(parts, "thinking"), "Pondering.");
      assert.deepEqual(messageOf(parts).content, [
        { role: "assistant", content: "Answer.", [field]: "Pondering." },
      ]);
    });
  }

  it("reassembles two tool calls whose arguments streamed in fragments", async () => {
    mock.enqueue({
      blocks: [
        { kind: "tool", id: "call_1", name: "read", input: { path: "a.ts" } },
        { kind: "tool", id: "call_2", name: "read", input: { path: "b.ts" } },
      ],
    });
    const parts = await run();
    const message = messageOf(parts);
    assert.deepEqual(message.toolCalls, [
      { id: "call_1", name: "read", arguments: '{"path":"a.ts"}' },
      { id: "call_2", name: "read", arguments: '{"path":"b.ts"}' },
    ]);
    assert.deepEqual(message.content, [
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "read", arguments: '{"path":"a.ts"}' },
          },
          {
            id: "call_2",
            type: "function",
            function: { name: "read", arguments: '{"path":"b.ts"}' },
          },
        ],
      },
    ]);
    const blocks = new Set(
      parts.map((p) => (p.type === "delta" ? p.block : -1)).filter((b) => b >= 0),
    );
    assert.deepEqual([...blocks], [0, 1]);
    assert.equal(message.stopReason, "tool_calls");
  });

  it("maps usage with cached tokens out of the prompt count", async () => {
    mock.enqueue({
      blocks: [{ kind: "text", text: "ok" }],
      usage: { input: 12, output: 34, cacheRead: 1000, reasoning: 7 },
    });
    const usage = messageOf(await run()).usage;
    assert.deepEqual(usage, {
      input: 12,
      output: 34,
      cache_read: 1000,
      cache_write: 0,
      reasoning: 7,
    });
  });

  it("asks for usage in the stream and sends system, tools and reasoning effort", async () => {
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    await run(
      makeRequest({ tools: [READ_TOOL], thinking: { budgetTokens: 8000 }, maxOutputTokens: 999 }),
    );
    const request = mock.requests.at(-1);
    assert.equal(request?.path, "/v1/chat/completions");
    assert.equal(request?.auth, "bearer");
    const body = request?.body as Record<string, unknown>;
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(body.stream, true);
    assert.deepEqual(body.messages, [
      { role: "system", content: "You are a test." },
      { role: "user", content: "hello" },
    ]);
    assert.deepEqual(body.tools, [
      {
        type: "function",
        function: {
          name: "read",
          description: READ_TOOL.description,
          parameters: READ_TOOL.inputSchema,
        },
      },
    ]);
    assert.equal(body.reasoning_effort, "medium");
    assert.equal(body.max_completion_tokens, 999);
  });

  // Written streams (not recorded) in the shapes servers send; the recorded ones are in
  // wire-replay.test.ts.
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const replay = (...chunks: string[]) => ({ replay: Buffer.from(chunks.join("")) });

  it("keeps an id and name that a server repeats on every piece once, not concatenated", async () => {
    const piece = (args: string) => ({
      tool_calls: [
        { index: 0, id: "call_9", type: "function", function: { name: "read", arguments: args } },
      ],
    });
    mock.enqueue(
      replay(chunk(piece('{"pa')), chunk(piece('th":"a.ts"}')), chunk({}, "tool_calls")),
    );
    const message = messageOf(await run());
    assert.deepEqual(message.toolCalls, [
      { id: "call_9", name: "read", arguments: '{"path":"a.ts"}' },
    ]);
  });

  it("reads index-less pieces as one call until a new id starts the next", async () => {
    const piece = (id: string | undefined, args: string) => ({
      tool_calls: [
        { ...(id ? { id } : {}), function: { ...(id ? { name: "read" } : {}), arguments: args } },
      ],
    });
    mock.enqueue(
      replay(
        chunk(piece("a1", '{"path":')),
        chunk(piece(undefined, '"a.ts"}')),
        chunk(piece("b2", '{"path":"b.ts"}')),
        chunk({}, "tool_calls"),
      ),
    );
    assert.deepEqual(messageOf(await run()).toolCalls, [
      { id: "a1", name: "read", arguments: '{"path":"a.ts"}' },
      { id: "b2", name: "read", arguments: '{"path":"b.ts"}' },
    ]);
  });

  it("takes a reasoning piece sent in both reasoning fields once", async () => {
    mock.enqueue(
      replay(
        chunk({ reasoning: "Think", reasoning_content: "Think" }),
        chunk({ reasoning: "ing.", reasoning_content: "ing." }),
        chunk({ content: "Done." }, "stop"),
      ),
    );
    const parts = await run();
    assert.equal(deltaText(parts, "thinking"), "Thinking.");
    assert.deepEqual(messageOf(parts).content, [
      { role: "assistant", content: "Done.", reasoning_content: "Thinking." },
    ]);
  });
});
