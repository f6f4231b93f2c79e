// The `anthropic` adapter: streams the Messages API through the official SDK (imported
// lazily, it is slow to load: anthropic-client.ts, which also serves Claude on Bedrock and
// Vertex) and assembles the content blocks verbatim, signatures included, for
// `assistant/message`. Called via index.ts.
import type {
  MessageCreateParamsStreaming,
  RawMessageStreamEvent,
} from "@anthropic-ai/sdk/resources/messages/messages";
import { type JsonValue, type Usage, zeroUsage } from "../session/events.ts";
import { createAnthropicClient } from "./anthropic-client.ts";
import { buildAnthropicBody } from "./anthropic-request.ts";
import { assembledStream, type StreamAssembly } from "./assembled-stream.ts";
import { guardStream } from "./failure.ts";
import { markCutCall } from "./output-limit.ts";
import type { DeltaSink, ModelToolCall, StreamPart, ToolInputStartSink } from "./types.ts";

type JsonObject = { [key: string]: JsonValue };

/**
 * The SDK prints model-deprecation notices with console.warn when a request is created, which
 * would break codewhale's one-line stderr contract. They are printed synchronously inside
 * `create`, so silencing console.warn for exactly that call affects nothing else.
 */
function withoutConsoleWarnings<T>(create: () => T): T {
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    return create();
  } finally {
    console.warn = warn;
  }
}

export const streamAnthropic = guardStream(async function* (config, request, emit, startTool) {
  const client = await createAnthropicClient(config);
  // The body is built from verbatim native JSON; this is the one boundary into SDK types.
  const body = buildAnthropicBody(config, request) as unknown as MessageCreateParamsStreaming;
  const opened = await withoutConsoleWarnings(() =>
    client.messages.create(body, { signal: request.signal }),
  ).withResponse();
  yield* assembledStream(opened, new MessageAssembly(emit, startTool), request, "message_stop");
});

/**
 * Accumulates stream events into content blocks exactly as the API sent them, handing each
 * text, thinking and tool-input delta to `emit` as it arrives, and each tool_use block's start
 * (id and name) to `startTool`.
 */
class MessageAssembly implements StreamAssembly<RawMessageStreamEvent> {
  private readonly blocks: JsonObject[] = [];
  private readonly partialJson = new Map<number, string>();
  private readonly usage: Usage = zeroUsage();
  private stopReason: string | null = null;
  complete = false;

  constructor(
    private readonly emit: DeltaSink,
    private readonly startTool: ToolInputStartSink,
  ) {}

  apply(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case "message_start":
        this.readUsage(event.message.usage);
        break;
      case "content_block_start": {
        const block = event.content_block;
        this.blocks[event.index] = structuredClone(block) as unknown as JsonObject;
        if (block.type === "tool_use") {
          this.startTool({ block: event.index, id: block.id, name: block.name });
        }
        break;
      }
      case "content_block_delta":
        this.applyDelta(event.index, event.delta);
        break;
      case "content_block_stop":
        this.closeBlock(event.index);
        break;
      case "message_delta":
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.readUsage(event.usage);
        break;
      case "message_stop":
        this.complete = true;
        break;
      default:
        break;
    }
  }

  private applyDelta(
    index: number,
    delta: Extract<RawMessageStreamEvent, { type: "content_block_delta" }>["delta"],
  ): void {
    const block = this.blocks[index];
    if (!block) return;
    switch (delta.type) {
      case "text_delta":
        block.text = `${typeof block.text === "string" ? block.text : ""}${delta.text}`;
        this.emit(index, "text", delta.text);
        break;
      case "thinking_delta":
        block.thinking = `${typeof block.thinking === "string" ? block.thinking : ""}${delta.thinking}`;
        this.emit(index, "thinking", delta.thinking);
        break;
      case "signature_delta":
        block.signature = `${typeof block.signature === "string" ? block.signature : ""}${delta.signature}`;
        break;
      case "citations_delta":
        // Kept on the text block as the API returns it, so it is replayed in the next request.
        block.citations = [
          ...(Array.isArray(block.citations) ? block.citations : []),
          structuredClone(delta.citation) as unknown as JsonValue,
        ];
        break;
      case "input_json_delta":
        this.partialJson.set(index, (this.partialJson.get(index) ?? "") + delta.partial_json);
        this.emit(index, "tool_input", delta.partial_json);
        break;
      default:
        break;
    }
  }

  /** A tool_use block's streamed JSON becomes its `input` when the block closes. */
  private closeBlock(index: number): void {
    const block = this.blocks[index];
    const json = this.partialJson.get(index);
    if (!block || json === undefined) return;
    try {
      block.input = json.trim() === "" ? {} : (JSON.parse(json) as JsonValue);
    } catch {
      // Kept replayable; the raw text still reaches the tool wrapper, which reports it.
      block.input = {};
    }
  }

  private readUsage(usage: {
    input_tokens?: number | null;
    output_tokens?: number | null;
    cache_read_input_tokens?: number | null;
    cache_creation_input_tokens?: number | null;
    output_tokens_details?: { thinking_tokens?: number } | null;
  }): void {
    this.usage.input = usage.input_tokens ?? this.usage.input;
    this.usage.output = usage.output_tokens ?? this.usage.output;
    this.usage.cache_read = usage.cache_read_input_tokens ?? this.usage.cache_read;
    this.usage.cache_write = usage.cache_creation_input_tokens ?? this.usage.cache_write;
    this.usage.reasoning = usage.output_tokens_details?.thinking_tokens ?? this.usage.reasoning;
  }

  /** The tool input exactly as streamed, or the block's own input when none was streamed. */
  private rawInput(block: JsonObject): string {
    const index = this.blocks.indexOf(block);
    const raw = this.partialJson.get(index);
    return raw !== undefined && raw.trim() !== "" ? raw : JSON.stringify(block.input ?? {});
  }

  finish(requestId: string | null): StreamPart {
    const content = this.blocks.filter((block) => block !== undefined);
    const toolCalls: ModelToolCall[] = content.flatMap((block) =>
      block.type === "tool_use"
        ? [{ id: String(block.id), name: String(block.name), arguments: this.rawInput(block) }]
        : [],
    );
    return {
      type: "message",
      api: "anthropic",
      content,
      stopReason: this.stopReason,
      requestId,
      toolCalls: markCutCall(toolCalls, this.stopReason),
      usage: { ...this.usage },
    };
  }
}
