// The `openai-responses` adapter: streams the Responses API through the official SDK (imported
// lazily). The finished output items (reasoning with encrypted_content, messages, function
// calls, custom tool calls) are kept verbatim as `assistant/message` content.
import type {
  ResponseCreateParamsStreaming,
  ResponseStreamEvent,
  ResponseUsage,
} from "openai/resources/responses/responses";
import { type JsonValue, type Usage, zeroUsage } from "../session/events.ts";
import { assembledStream, type StreamAssembly } from "./assembled-stream.ts";
import { guardStream, StreamEventError } from "./failure.ts";
import { createOpenAIClient } from "./openai-client.ts";
import { buildResponsesBody } from "./openai-responses-request.ts";
import { markCutCall } from "./output-limit.ts";
import type { DeltaSink, ModelToolCall, StreamPart } from "./types.ts";

type JsonObject = { [key: string]: JsonValue };

export const streamOpenAIResponses = guardStream(async function* (config, request, emit) {
  const client = await createOpenAIClient(config);
  const body = buildResponsesBody(config, request) as unknown as ResponseCreateParamsStreaming;
  const opened = await client.responses.create(body, { signal: request.signal }).withResponse();
  yield* assembledStream(opened, new ResponseAssembly(emit), request, "response.completed");
});

/**
 * Collects finished output items by output index and the usage of the final response; hands
 * each text, reasoning and argument delta to `emit` as it arrives.
 */
class ResponseAssembly implements StreamAssembly<ResponseStreamEvent> {
  private readonly items: JsonObject[] = [];
  private usage: Usage = zeroUsage();
  private stopReason: string | null = null;

  get complete(): boolean {
    return this.stopReason !== null;
  }

  constructor(private readonly emit: DeltaSink) {}

  apply(event: ResponseStreamEvent): void {
    switch (event.type) {
      case "response.output_text.delta":
        this.emit(event.output_index, "text", event.delta);
        return;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        this.emit(event.output_index, "thinking", event.delta);
        return;
      case "response.function_call_arguments.delta":
      case "response.custom_tool_call_input.delta":
        this.emit(event.output_index, "tool_input", event.delta);
        return;
      case "response.output_item.done":
        this.items[event.output_index] = structuredClone(event.item) as unknown as JsonObject;
        return;
      case "response.completed":
      case "response.incomplete":
        if (event.response.usage) this.usage = responsesUsage(event.response.usage);
        this.stopReason =
          event.response.incomplete_details?.reason ?? event.response.status ?? "completed";
        return;
      case "response.failed": {
        const error = event.response.error;
        throw new StreamEventError(
          error?.code ?? "response_failed",
          error?.message ?? "response failed",
        );
      }
      case "error":
        throw new StreamEventError(event.code ?? "error", event.message);
      default:
        return;
    }
  }

  finish(requestId: string | null): StreamPart {
    const content = this.items.filter((item) => item !== undefined);
    const toolCalls = content.flatMap(toolCallOf);
    return {
      type: "message",
      api: "openai-responses",
      content,
      stopReason: this.stopReason,
      requestId,
      toolCalls: markCutCall(toolCalls, this.stopReason),
      usage: this.usage,
    };
  }
}

/** The call an output item makes: a function call's JSON arguments, a custom call's raw input. */
function toolCallOf(item: JsonObject): ModelToolCall[] {
  const call = { id: String(item.call_id), name: String(item.name) };
  if (item.type === "function_call") return [{ ...call, arguments: String(item.arguments) }];
  if (item.type === "custom_tool_call")
    return [{ ...call, arguments: String(item.input ?? ""), custom: true }];
  return [];
}

/** `input_tokens` includes cached tokens; Usage.input does not. Reasoning is part of output. */
function responsesUsage(usage: ResponseUsage): Usage {
  const cached = usage.input_tokens_details?.cached_tokens ?? 0;
  return {
    input: Math.max(0, usage.input_tokens - cached),
    output: usage.output_tokens,
    cache_read: cached,
    cache_write: 0,
    reasoning: usage.output_tokens_details?.reasoning_tokens ?? 0,
  };
}
