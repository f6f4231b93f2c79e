// Builds the Chat Completions request body from the neutral history: one `system` message,
// user messages (a prompt's images as `image_url` parts after its text), the native assistant
// message verbatim (or converted when foreign), and role "tool" messages answering each tool_call_id. A tool message holds text only, so the
// images of a run of tool results (when the loop kept them for this model) follow that run as
// one user message of `image_url` parts, each named by its call.
import type { HistoryMessage } from "../session/derive.ts";
import type { JsonValue } from "../session/events.ts";
import { isNative, isObject, readNative, sentImages, toChatMessage } from "./neutral.ts";
import type { ProviderConfig, ProviderRequest, ReasoningEffort } from "./types.ts";

type JsonObject = { [key: string]: JsonValue };

export function buildChatBody(config: ProviderConfig, request: ProviderRequest): JsonObject {
  const target = { api: "openai-chat" as const, provider: config.name, model: request.model };
  const messages: JsonValue[] = [];
  if (request.system !== "") messages.push({ role: "system", content: request.system });
  let images: JsonObject[] = [];
  for (const message of request.messages) {
    if (message.role !== "tool" && images.length > 0) {
      messages.push({ role: "user", content: images });
      images = [];
    }
    messages.push(...toChatMessages(message, target));
    if (message.role === "tool") images.push(...imageParts(message));
  }
  if (images.length > 0) messages.push({ role: "user", content: images });
  const body: JsonObject = {
    model: request.model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
  }
  if (request.maxOutputTokens !== undefined) body.max_completion_tokens = request.maxOutputTokens;
  if (request.thinking) {
    body.reasoning_effort =
      request.thinking.effort ?? reasoningEffort(request.thinking.budgetTokens);
  }
  return body;
}

function toChatMessages(
  message: HistoryMessage,
  target: { api: "openai-chat"; provider: string; model: string },
): JsonValue[] {
  if (message.role === "user") {
    const images = sentImages(message);
    if (images.length === 0) return [{ role: "user", content: message.text }];
    const parts: JsonObject[] = message.text === "" ? [] : [{ type: "text", text: message.text }];
    for (const image of images) {
      parts.push({
        type: "image_url",
        image_url: { url: `data:${image.mimeType};base64,${image.data}` },
      });
    }
    return [{ role: "user", content: parts }];
  }
  if (message.role === "tool") {
    return [{ role: "tool", tool_call_id: message.call_id, content: message.content }];
  }
  if (isNative(message, target)) return message.content.filter(isObject);
  const converted = toChatMessage(readNative(message.content));
  return converted.content === null && converted.tool_calls === undefined ? [] : [converted];
}

/** A tool result's images as Chat Completions content parts, after a line naming the call. */
function imageParts(message: Extract<HistoryMessage, { role: "tool" }>): JsonObject[] {
  const images = sentImages(message);
  if (images.length === 0) return [];
  return [
    { type: "text", text: `The images of tool result ${message.call_id}:` },
    ...images.map((image) => ({
      type: "image_url",
      image_url: { url: `data:${image.mimeType};base64,${image.data}` },
    })),
  ];
}

/** OpenAI's reasoning models take an effort level, not a token budget: the level a budget reads as. */
export function reasoningEffort(budgetTokens: number): ReasoningEffort {
  if (budgetTokens <= 4096) return "low";
  if (budgetTokens <= 16_384) return "medium";
  return "high";
}
