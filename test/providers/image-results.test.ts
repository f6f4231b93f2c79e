// Tool results with images in each wire format's request body (the builders alone, no
// network): Anthropic's tool_result content blocks, the Responses API's function_call_output
// parts, and Chat Completions' one user message of image_url parts after the whole run of
// tool messages (a tool message holds text only, and nothing may come between them).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildAnthropicBody } from "../../src/providers/anthropic-request.ts";
import { buildChatBody } from "../../src/providers/openai-chat-request.ts";
import { buildResponsesBody } from "../../src/providers/openai-responses-request.ts";
import type { ProviderConfig, ProviderRequest } from "../../src/providers/types.ts";
import type { HistoryMessage } from "../../src/session/derive.ts";

const image = { mimeType: "image/png", data: "iVBORw0KGgo=", bytes: 8 };
const history: HistoryMessage[] = [
  { role: "user", text: "look", seq: 0 },
  {
    role: "assistant",
    api: "scripted",
    provider: "x",
    model: "x",
    seq: 1,
    content: [
      { type: "tool_use", id: "a", name: "shot", input: {} },
      { type: "tool_use", id: "b", name: "read", input: {} },
    ],
  },
  {
    role: "tool",
    call_id: "a",
    name: "shot",
    content: "[image image/png, 8 B]",
    is_error: false,
    seq: 2,
    images: [image],
  },
  { role: "tool", call_id: "b", name: "read", content: "text only", is_error: false, seq: 3 },
  { role: "user", text: "and now?", seq: 4 },
];
const request = (): ProviderRequest => ({
  model: "m",
  system: "",
  messages: history,
  tools: [],
  signal: new AbortController().signal,
});
const config = (kind: ProviderConfig["kind"]): ProviderConfig => ({ name: "p", kind, apiKey: "k" });

describe("tool results with images on the wire", () => {
  it("Anthropic: text then image blocks in the tool_result", () => {
    const body = buildAnthropicBody(config("anthropic"), request());
    const user = (body.messages as Array<{ content: Array<Record<string, unknown>> }>)[2];
    assert.deepEqual(user?.content[0]?.content, [
      { type: "text", text: "[image image/png, 8 B]" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: image.data } },
    ]);
    assert.equal(user?.content[1]?.content, "text only");
  });

  it("Responses: input_text then input_image parts in the function_call_output", () => {
    const body = buildResponsesBody(config("openai-responses"), request());
    const outputs = (body.input as Array<Record<string, unknown>>).filter(
      (item) => item.type === "function_call_output",
    );
    assert.deepEqual(
      outputs.map((item) => item.output),
      [
        [
          { type: "input_text", text: "[image image/png, 8 B]" },
          { type: "input_image", image_url: `data:image/png;base64,${image.data}` },
        ],
        "text only",
      ],
    );
  });

  it("Chat Completions: the images follow the whole run of tool messages, before the next prompt", () => {
    const body = buildChatBody(config("openai-chat"), request());
    const roles = (body.messages as Array<{ role: string }>).map((message) => message.role);
    assert.deepEqual(roles, ["user", "assistant", "tool", "tool", "user", "user"]);
    assert.deepEqual((body.messages as Array<{ content: unknown }>)[4]?.content, [
      { type: "text", text: "The images of tool result a:" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${image.data}` } },
    ]);
  });
});
