// Builds the Responses API request body from the neutral history. Stateless on purpose
// (`store: false`): reasoning items come back with `encrypted_content` and are replayed
// verbatim, with function calls and their `function_call_output` items (a custom tool call's
// result is its `custom_tool_call_output`), to the same model.
// An output with images (kept by the loop for this model) is a list of input_text and
// input_image parts; so is a prompt with images.
import type { HistoryMessage } from "../session/derive.ts";
import type { JsonValue } from "../session/events.ts";
import { isNative, isObject, readNative, sentImages, toResponsesItems } from "./neutral.ts";
import { reasoningEffort } from "./openai-chat-request.ts";
import type { ProviderConfig, ProviderRequest } from "./types.ts";

type JsonObject = { [key: string]: JsonValue };

export function buildResponsesBody(config: ProviderConfig, request: ProviderRequest): JsonObject {
  const target = { api: "openai-responses" as const, provider: config.name, model: request.model };
  const custom = customCallIds(request.messages, target);
  const input = request.messages.flatMap((message) => toInputItems(message, target, custom));
  const body: JsonObject = { model: request.model };
  if (request.system !== "") body.instructions = request.system;
  body.input = input;
  body.stream = true;
  body.store = false;
  body.include = ["reasoning.encrypted_content"];
  const tools: JsonValue[] = request.tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
  }));
  if (request.webSearch) {
    // The server's search tool; its calls come back as web_search_call items with sources.
    tools.push({ type: "web_search" });
    body.include = ["reasoning.encrypted_content", "web_search_call.action.sources"];
  }
  if (tools.length > 0) body.tools = tools;
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  if (request.thinking) {
    const effort = request.thinking.effort ?? reasoningEffort(request.thinking.budgetTokens);
    body.reasoning = { effort, summary: "auto" };
  }
  return body;
}

type Target = { api: "openai-responses"; provider: string; model: string };

/** The call ids of the custom tool calls replayed verbatim (their results differ in type). */
function customCallIds(messages: HistoryMessage[], target: Target): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role !== "assistant" || !isNative(message, target)) continue;
    for (const item of message.content) {
      if (isObject(item) && item.type === "custom_tool_call") ids.add(String(item.call_id));
    }
  }
  return ids;
}

function toInputItems(message: HistoryMessage, target: Target, custom: Set<string>): JsonValue[] {
  if (message.role === "user") {
    const images = sentImages(message);
    if (images.length === 0) return [{ role: "user", content: message.text }];
    const parts: JsonObject[] =
      message.text === "" ? [] : [{ type: "input_text", text: message.text }];
    for (const image of images) {
      parts.push({ type: "input_image", image_url: `data:${image.mimeType};base64,${image.data}` });
    }
    return [{ role: "user", content: parts }];
  }
  if (message.role === "tool") {
    const images = sentImages(message);
    const output: JsonValue =
      images.length === 0
        ? message.content
        : [
            { type: "input_text", text: message.content },
            ...images.map((image) => ({
              type: "input_image",
              image_url: `data:${image.mimeType};base64,${image.data}`,
            })),
          ];
    const type = custom.has(message.call_id) ? "custom_tool_call_output" : "function_call_output";
    return [{ type, call_id: message.call_id, output }];
  }
  if (isNative(message, target)) return message.content.filter(isObject);
  return toResponsesItems(readNative(message.content));
}
