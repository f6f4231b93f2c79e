// The openai-responses adapter through the real SDK against the loopback mock: streamed parts,
// the output items it keeps (reasoning with encrypted_content, messages, function calls),
// usage with cached tokens, and the stateless request it sends.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { streamOpenAIResponses } from "../../src/providers/openai-responses.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { collect, configFor, deltaText, makeRequest, messageOf, READ_TOOL } from "./helpers.ts";

describe("openai-responses adapter", () => {
  const mock = useMockProvider();
  const run = (request = makeRequest()) =>
    collect(streamOpenAIResponses(configFor("openai-responses", mock), request));

  it("streams text deltas in order and ends with the native output items", async () => {
    mock.enqueue({ blocks: [{ kind: "text", text: "Hello there, world!" }], chunkSize: 5 });
    const parts = await run();
    assert.equal(parts[0]?.type === "start" && parts[0].requestId?.startsWith("req_"), true);
    assert.deepEqual(
      parts.filter((p) => p.type === "delta").map((p) => p.type === "delta" && p.delta),
      ["Hello", " ther", "e, wo", "rld!"],
    );
    const message = messageOf(parts);
    assert.equal(message.content.length, 1);
    assert.deepEqual(message.content[0], {
      id: "msg_mock_1_0",
      type: "message",
      role: "assistant",
      status: "completed",
      content: [
        { type: "output_text", text: "Hello there, world!", annotations: [], logprobs: [] },
      ],
    });
    assert.equal(message.stopReason, "completed");
  });

  it("keeps reasoning items with their encrypted_content", async () => {
    mock.enqueue({
      blocks: [
        { kind: "thinking", text: "Summary of thought.", signature: "gAAAA-encrypted" },
        { kind: "text", text: "Answer." },
      ],
    });
    const parts = await run();
    assert.equal(deltaText(parts, "thinking"), "Summary of thought.");
    const [reasoning] = messageOf(parts).content;
    assert.deepEqual(reasoning, {
      id: "rs_mock_2_0",
      type: "reasoning",
      summary: [{ type: "summary_text", text: "Summary of thought." }],
      encrypted_content: "gAAAA-encrypted",
    });
  });

  it("reassembles a function call whose arguments streamed in fragments", async () => {
    mock.enqueue({
      blocks: [{ kind: "tool", id: "call_9", name: "read", input: { path: "x.ts" } }],
    });
    const parts = await run();
    assert.ok(parts.filter((p) => p.type === "delta" && p.kind === "tool_input").length >= 3);
    const message = messageOf(parts);
    assert.deepEqual(message.toolCalls, [
      { id: "call_9", name: "read", arguments: '{"path":"x.ts"}' },
    ]);
    assert.equal((message.content[0] as { type: string }).type, "function_call");
  });

  it("maps usage with cached tokens out of the input count", async () => {
    mock.enqueue({
      blocks: [{ kind: "text", text: "ok" }],
      usage: { input: 3, output: 4, cacheRead: 50, reasoning: 2 },
    });
    const usage = messageOf(await run()).usage;
    assert.deepEqual(usage, { input: 3, output: 4, cache_read: 50, cache_write: 0, reasoning: 2 });
  });

  it("sends a stateless request that includes encrypted reasoning", async () => {
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    await run(makeRequest({ tools: [READ_TOOL], thinking: { budgetTokens: 50_000 } }));
    const request = mock.requests.at(-1);
    assert.equal(request?.path, "/v1/responses");
    const body = request?.body as Record<string, unknown>;
    assert.deepEqual(body.include, ["reasoning.encrypted_content"]);
    assert.equal(body.store, false);
    assert.equal(body.stream, true);
    assert.equal(body.instructions, "You are a test.");
    assert.deepEqual(body.input, [{ role: "user", content: "hello" }]);
    assert.deepEqual(body.reasoning, { effort: "high", summary: "auto" });
    assert.deepEqual(body.tools, [
      {
        type: "function",
        name: "read",
        description: READ_TOOL.description,
        parameters: READ_TOOL.inputSchema,
        strict: false,
      },
    ]);
  });

  for (const openLastItem of ["listed", "unlisted"] as const) {
    it(`keeps a call cut at max_output_tokens and never closed (${openLastItem} in the final output), marked cut`, async () => {
      mock.enqueue({
        blocks: [
          { kind: "text", text: "Writing it." },
          { kind: "tool", id: "call_long", name: "write", input: { path: "a.txt", content: "x" } },
        ],
        stopReason: "max_output_tokens",
        openLastItem,
      });
      const parts = await run(makeRequest({ tools: [READ_TOOL] }));
      const message = messageOf(parts);
      assert.equal(message.stopReason, "max_output_tokens");
      const streamed = deltaText(parts, "tool_input");
      assert.ok(streamed.length > 0 && !streamed.endsWith("}"), "the arguments were cut");
      assert.deepEqual(message.toolCalls, [
        { id: "call_long", name: "write", arguments: streamed, cut: true },
      ]);
      const types = message.content.map((item) => (item as { type: string }).type);
      assert.deepEqual(types, ["message", "function_call"], "the text and the call are kept");
    });
  }
});
