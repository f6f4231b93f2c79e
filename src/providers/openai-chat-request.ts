// Builds the Chat Completions request body from the neutral history: one `system` message,
// user messages, the native assistant message verbatim (or converted when foreign), and
// role "tool" messages answering each tool_call_id.
import type { HistoryMessage } from "../session/derive.ts";
import type { JsonValue } from "../session/events.ts";
import { isNative, isObject, readNative, toChatMessage } from "./neutral.ts";
import type { ProviderConfig, ProviderRequest } from "./types.ts";

type JsonObject = { [key: string]: JsonValue };

export function buildChatBody(config: ProviderConfig, request: ProviderRequest): JsonObject {
  const target = { api: "openai-chat" as const, provider: config.name, model: request.model };
  const messages: JsonValue[] = [];
  if (request.system !== "") messages.push({ role: "system", content: request.system });
  for (const message of request.messages) messages.push(...toChatMessages(message, target));
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
  if (request.thinking) body.reasoning_effort = reasoningEffort(request.thinking.budgetTokens);
  return body;
}

function toChatMessages(
  message: HistoryMessage,
  target: { api: "openai-chat"; provider: string; model: string },
): JsonValue[] {
  if (message.role === "user") return [{ role: "user", content: message.text }];
  if (message.role === "tool") {
    return [{ role: "tool", tool_call_id: message.call_id, content: message.content }];
  }
  if (isNative(message, target)) return message.content.filter(isObject);
  const converted = toChatMessage(readNative(message.content));
  return converted.content === null && converted.tool_calls === undefined ? [] : [converted];
}

/** OpenAI's reasoning models take an effort level, not a token budget. */
export function reasoningEffort(budgetTokens: number): "low" | "medium" | "high" {
  if (budgetTokens <= 4096) return "low";
  if (budgetTokens <= 16_384) return "medium";
  return "high";
}
