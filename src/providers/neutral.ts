// Cross-model replay. An assistant message is replayed verbatim only to the provider, API and
// model that produced it; for any other target it is read here into neutral blocks (from any
// of the three native shapes) and rewritten in the target's shape. Native reasoning never
// crosses: readable thinking becomes a marked text block, opaque reasoning is dropped.
import type { HistoryMessage } from "../session/derive.ts";
import type { JsonValue } from "../session/events.ts";
import type { ProviderApi } from "./types.ts";

export type NeutralBlock =
  | { kind: "text"; text: string }
  | { kind: "thinking"; text: string }
  | { kind: "tool_call"; id: string; name: string; arguments: string };

type AssistantMessage = Extract<HistoryMessage, { role: "assistant" }>;
type JsonObject = { [key: string]: JsonValue };

/** True when the message came from exactly this target, so its native items replay as is. */
export function isNative(
  message: AssistantMessage,
  target: { api: ProviderApi; provider: string; model: string },
): boolean {
  return (
    message.api === target.api &&
    message.provider === target.provider &&
    message.model === target.model
  );
}

/** Foreign thinking as plain text: a short marker keeps it from reading as the answer. */
export function thinkingAsText(text: string): string {
  return `<previous_model_thinking>\n${text}\n</previous_model_thinking>`;
}

/** Reads Anthropic blocks, Responses output items or a Chat Completions message. */
export function readNative(content: JsonValue[]): NeutralBlock[] {
  return content.flatMap((item) => (isObject(item) ? readItem(item) : []));
}

function readItem(item: JsonObject): NeutralBlock[] {
  if (item.role === "assistant" && item.type === undefined) return readChatMessage(item);
  switch (item.type) {
    case "text":
      return textBlock(item.text);
    case "thinking":
      return typeof item.thinking === "string" && item.thinking !== ""
        ? [{ kind: "thinking", text: item.thinking }]
        : [];
    case "tool_use":
      return [toolCall(item.id, item.name, JSON.stringify(item.input ?? {}))];
    case "message":
      return readResponsesMessage(item);
    case "reasoning":
      return readResponsesReasoning(item);
    case "function_call":
      return [toolCall(item.call_id, item.name, item.arguments)];
    case "custom_tool_call":
      // Free-form input has no JSON form of its own: another model reads it as `{input}`.
      return [toolCall(item.call_id, item.name, JSON.stringify({ input: item.input ?? "" }))];
    default:
      // redacted_thinking and anything unknown carry nothing another model can read.
      return [];
  }
}

function readChatMessage(message: JsonObject): NeutralBlock[] {
  const reasoning = message.reasoning_content ?? message.reasoning;
  const blocks: NeutralBlock[] = [];
  if (typeof reasoning === "string" && reasoning !== "") {
    blocks.push({ kind: "thinking", text: reasoning });
  }
  blocks.push(...textBlock(message.content));
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  for (const call of calls) {
    if (!isObject(call) || !isObject(call.function)) continue;
    blocks.push(toolCall(call.id, call.function.name, call.function.arguments));
  }
  return blocks;
}

function readResponsesMessage(item: JsonObject): NeutralBlock[] {
  const parts = Array.isArray(item.content) ? item.content : [];
  const text = parts
    .map((part) => (isObject(part) && typeof part.text === "string" ? part.text : ""))
    .join("");
  return textBlock(text);
}

function readResponsesReasoning(item: JsonObject): NeutralBlock[] {
  const parts = [
    ...(Array.isArray(item.summary) ? item.summary : []),
    ...(Array.isArray(item.content) ? item.content : []),
  ];
  const text = parts
    .map((part) => (isObject(part) && typeof part.text === "string" ? part.text : ""))
    .filter((part) => part !== "")
    .join("\n\n");
  return text === "" ? [] : [{ kind: "thinking", text }];
}

function textBlock(text: JsonValue | undefined): NeutralBlock[] {
  return typeof text === "string" && text !== "" ? [{ kind: "text", text }] : [];
}

function toolCall(
  id: JsonValue | undefined,
  name: JsonValue | undefined,
  args: JsonValue | undefined,
): NeutralBlock {
  return {
    kind: "tool_call",
    id: typeof id === "string" ? id : "",
    name: typeof name === "string" ? name : "",
    arguments: typeof args === "string" ? args : "{}",
  };
}

/** The images of a message that the request carries (those with `data`: inline, or read back). */
export function sentImages(
  message: Extract<HistoryMessage, { role: "user" | "tool" }>,
): Array<{ mimeType: string; data: string }> {
  return (message.images ?? []).flatMap((image) =>
    image.data === undefined ? [] : [{ mimeType: image.mimeType, data: image.data }],
  );
}

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Anthropic requires tool ids matching [a-zA-Z0-9_-]+; other providers' ids may not. */
export function anthropicToolId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_") || "tool";
}

/** Parses tool arguments for a target that wants an object; bad JSON is kept as a string. */
function argumentsObject(args: string): JsonValue {
  try {
    const parsed: JsonValue = JSON.parse(args || "{}");
    return isObject(parsed) ? parsed : { value: parsed };
  } catch {
    return { invalid_json: args };
  }
}

/** Neutral blocks as Anthropic content blocks. */
export function toAnthropicBlocks(blocks: NeutralBlock[]): JsonObject[] {
  return blocks.map((block): JsonObject => {
    if (block.kind === "text") return { type: "text", text: block.text };
    if (block.kind === "thinking") return { type: "text", text: thinkingAsText(block.text) };
    return {
      type: "tool_use",
      id: anthropicToolId(block.id),
      name: block.name,
      input: argumentsObject(block.arguments),
    };
  });
}

/** Neutral blocks as one Chat Completions assistant message. */
export function toChatMessage(blocks: NeutralBlock[]): JsonObject {
  const text = blocks
    .map((b) => (b.kind === "text" ? b.text : b.kind === "thinking" ? thinkingAsText(b.text) : ""))
    .filter((part) => part !== "")
    .join("\n\n");
  const calls = blocks.flatMap((b) =>
    b.kind === "tool_call"
      ? [{ id: b.id, type: "function", function: { name: b.name, arguments: b.arguments } }]
      : [],
  );
  const message: JsonObject = { role: "assistant", content: text === "" ? null : text };
  if (calls.length > 0) message.tool_calls = calls;
  return message;
}

/** Neutral blocks as Responses input items. */
export function toResponsesItems(blocks: NeutralBlock[]): JsonObject[] {
  return blocks.map((block): JsonObject => {
    if (block.kind === "tool_call") {
      return {
        type: "function_call",
        call_id: block.id,
        name: block.name,
        arguments: block.arguments,
      };
    }
    const text = block.kind === "text" ? block.text : thinkingAsText(block.text);
    return { role: "assistant", content: text };
  });
}
