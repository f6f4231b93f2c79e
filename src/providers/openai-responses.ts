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
import type { DeltaSink, ModelToolCall, StreamPart, ToolInputStartSink } from "./types.ts";

type JsonObject = { [key: string]: JsonValue };

export const streamOpenAIResponses = guardStream(
  async function* (config, request, emit, startTool) {
    const client = await createOpenAIClient(config);
    const body = buildResponsesBody(config, request) as unknown as ResponseCreateParamsStreaming;
    const opened = await client.responses.create(body, { signal: request.signal }).withResponse();
    yield* assembledStream(
      opened,
      new ResponseAssembly(emit, startTool),
      request,
      "response.completed",
    );
  },
);

/**
 * Collects finished output items by output index and the usage of the final response; hands
 * each text, reasoning and argument delta to `emit` as it arrives, and each function or custom
 * tool call's start (call id and name, when its item is added) to `startTool`. A response cut
 * at its output limit may never close the item it was writing (no output_item.done): that item
 * is taken from the final response's `output` when listed there, else rebuilt from its deltas
 * (`unfinished` below), so the call it held is not lost (it is marked cut, output-limit.ts).
 */
class ResponseAssembly implements StreamAssembly<ResponseStreamEvent> {
  private readonly items: JsonObject[] = [];
  private readonly opened: OpenItem[] = [];
  private final: JsonObject[] = [];
  private usage: Usage = zeroUsage();
  private stopReason: string | null = null;

  get complete(): boolean {
    return this.stopReason !== null;
  }

  constructor(
    private readonly emit: DeltaSink,
    private readonly startTool: ToolInputStartSink,
  ) {}

  apply(event: ResponseStreamEvent): void {
    switch (event.type) {
      case "response.output_item.added":
        this.opened[event.output_index] = {
          item: structuredClone(event.item) as unknown as JsonObject,
          streamed: "",
        };
        if (event.item.type === "function_call" || event.item.type === "custom_tool_call") {
          const { call_id: id, name } = event.item;
          this.startTool({ block: event.output_index, id, name });
        }
        return;
      case "response.output_text.delta":
        this.stream(event.output_index, "text", event.delta);
        return;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        this.emit(event.output_index, "thinking", event.delta);
        return;
      case "response.function_call_arguments.delta":
      case "response.custom_tool_call_input.delta":
        this.stream(event.output_index, "tool_input", event.delta);
        return;
      case "response.output_item.done":
        this.items[event.output_index] = structuredClone(event.item) as unknown as JsonObject;
        return;
      case "response.completed":
      case "response.incomplete":
        if (event.response.usage) this.usage = responsesUsage(event.response.usage);
        this.final = structuredClone(event.response.output ?? []) as unknown as JsonObject[];
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

  /** A delta, emitted, and kept for its item in case the item is never closed. */
  private stream(index: number, kind: "text" | "tool_input", delta: string): void {
    const open = this.opened[index];
    if (open) open.streamed += delta;
    this.emit(index, kind, delta);
  }

  /** Each output index's item: as closed, else as the final response lists it, else rebuilt. */
  private outputItems(): JsonObject[] {
    const count = Math.max(this.items.length, this.opened.length, this.final.length);
    const out: JsonObject[] = [];
    for (let index = 0; index < count; index++) {
      const open = this.opened[index];
      const listed = this.final[index];
      const item =
        this.items[index] ??
        (listed && (!open || listed.type === open.item.type) ? listed : undefined) ??
        (open ? unfinished(open) : undefined);
      if (item) out.push(item);
    }
    return out;
  }

  finish(requestId: string | null): StreamPart {
    const content = this.outputItems();
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

/** An output item announced by output_item.added, with the deltas streamed into it. */
interface OpenItem {
  item: JsonObject;
  streamed: string;
}

/**
 * An item the stream never closed, as far as it got: a call with the arguments (or custom
 * input) streamed so far, a message with its text. Anything else (a reasoning item has no
 * encrypted_content until closed, and cannot be sent back without it) is dropped.
 */
function unfinished({ item, streamed }: OpenItem): JsonObject | undefined {
  const status = "incomplete";
  if (item.type === "function_call") return { ...item, arguments: streamed, status };
  if (item.type === "custom_tool_call") return { ...item, input: streamed, status };
  if (item.type !== "message" || streamed === "") return undefined;
  return { ...item, status, content: [{ type: "output_text", text: streamed, annotations: [] }] };
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
