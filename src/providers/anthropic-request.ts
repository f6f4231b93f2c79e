// Builds the Anthropic Messages request body from the neutral history. Native assistant
// content replays verbatim; a prompt's images are image blocks before its text; tool results (with their images as image blocks, when the loop
// kept them for this model) and any user text after them share one user message;
// cache_control breakpoints sit on the system prompt, the last tool and the newest message.
// The server's web search tool, when offered, follows the function tools.
import type { HistoryMessage } from "../session/derive.ts";
import type { JsonValue } from "../session/events.ts";
import {
  anthropicToolId,
  isNative,
  isObject,
  readNative,
  sentImages,
  toAnthropicBlocks,
} from "./neutral.ts";
import type { ProviderConfig, ProviderRequest } from "./types.ts";

type JsonObject = { [key: string]: JsonValue };
interface WireMessage {
  role: "user" | "assistant";
  content: JsonValue[];
}

export const DEFAULT_MAX_TOKENS = 16_384;
const EPHEMERAL: JsonObject = { type: "ephemeral" };
/** Anthropic's server-side web search tool, the version whose blocks codewhale reads. */
const WEB_SEARCH_TOOL = "web_search_20250305";

export function buildAnthropicBody(config: ProviderConfig, request: ProviderRequest): JsonObject {
  const target = { api: "anthropic" as const, provider: config.name, model: request.model };
  const messages = toWireMessages(request.messages, (message) => isNative(message, target));
  let maxTokens = request.maxOutputTokens ?? DEFAULT_MAX_TOKENS;
  const body: JsonObject = { model: request.model, max_tokens: maxTokens, stream: true };
  if (request.system !== "") {
    body.system = [{ type: "text", text: request.system, cache_control: EPHEMERAL }];
  }
  const tools: JsonValue[] = request.tools.map((tool, i) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
    ...(i === request.tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
  if (request.webSearch) {
    tools.push({ type: WEB_SEARCH_TOOL, name: "web_search", max_uses: request.webSearch.maxUses });
  }
  if (tools.length > 0) body.tools = tools;
  if (request.thinking && thinkingAllowed(messages)) {
    const budget = Math.max(1024, request.thinking.budgetTokens);
    maxTokens = Math.max(maxTokens, budget + 1024);
    body.max_tokens = maxTokens;
    body.thinking = { type: "enabled", budget_tokens: budget };
  }
  body.messages = markNewest(messages) as unknown as JsonValue[];
  return body;
}

/** History to alternating user/assistant messages; consecutive user-side content merges. */
export function toWireMessages(
  history: HistoryMessage[],
  native: (message: Extract<HistoryMessage, { role: "assistant" }>) => boolean,
): WireMessage[] {
  const out: WireMessage[] = [];
  const appendUser = (block: JsonObject) => {
    const last = out.at(-1);
    if (last?.role === "user") last.content.push(block);
    else out.push({ role: "user", content: [block] });
  };
  for (const message of history) {
    if (message.role === "user") {
      for (const image of sentImages(message)) {
        appendUser({
          type: "image",
          source: { type: "base64", media_type: image.mimeType, data: image.data },
        });
      }
      if (message.text !== "" || !message.images?.length) {
        appendUser({ type: "text", text: message.text });
      }
    } else if (message.role === "tool") appendUser(toolResult(message));
    else {
      const content = native(message)
        ? message.content
        : toAnthropicBlocks(readNative(message.content));
      if (content.length > 0) out.push({ role: "assistant", content });
    }
  }
  return out;
}

/** A tool result; one with images carries its text, then each image, as content blocks. */
function toolResult(message: Extract<HistoryMessage, { role: "tool" }>): JsonObject {
  const images = sentImages(message);
  const content: JsonValue =
    images.length === 0
      ? message.content
      : [
          { type: "text", text: message.content },
          ...images.map((image) => ({
            type: "image",
            source: { type: "base64", media_type: image.mimeType, data: image.data },
          })),
        ];
  return {
    type: "tool_result",
    tool_use_id: anthropicToolId(message.call_id),
    content,
    ...(message.is_error ? { is_error: true } : {}),
  };
}

/**
 * Puts the moving cache breakpoint on the newest message's last block, on a copy: native
 * content is replayed verbatim elsewhere and must not change. Each request writes the cache up
 * to its newest message and reads back the previous request's prefix.
 */
function markNewest(messages: WireMessage[]): WireMessage[] {
  const last = messages.at(-1);
  const block = last?.content.at(-1);
  if (!last || !isObject(block) || !CACHEABLE.has(String(block.type))) return messages;
  const marked = { ...block, cache_control: EPHEMERAL };
  return [...messages.slice(0, -1), { ...last, content: [...last.content.slice(0, -1), marked] }];
}

const CACHEABLE = new Set(["text", "tool_result", "tool_use", "image", "document"]);

/**
 * With thinking on, Anthropic requires the assistant message that a tool loop continues from
 * to start with a (signed) thinking block. A converted foreign message cannot, so thinking is
 * left off for that one request.
 */
function thinkingAllowed(messages: WireMessage[]): boolean {
  const last = messages.at(-1);
  const continuesToolLoop =
    last?.role === "user" && last.content.some((b) => isObject(b) && b.type === "tool_result");
  if (!continuesToolLoop) return true;
  const assistant = messages.at(-2);
  const first = assistant?.content[0];
  return isObject(first) && (first.type === "thinking" || first.type === "redacted_thinking");
}
