// The `openai-chat` adapter: streams Chat Completions through the official SDK (imported
// lazily) for OpenAI and compatible servers (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter).
// Assembles the one assistant message, keeping `reasoning_content`/`reasoning` as thinking.
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from "openai/resources/chat/completions";
import { type JsonValue, type Usage, zeroUsage } from "../session/events.ts";
import { assembledStream, type StreamAssembly } from "./assembled-stream.ts";
import { guardStream } from "./failure.ts";
import { buildChatBody } from "./openai-chat-request.ts";
import { createOpenAIClient } from "./openai-client.ts";
import { markCutCall } from "./output-limit.ts";
import type { DeltaSink, StreamPart, ToolInputStartSink } from "./types.ts";

type JsonObject = { [key: string]: JsonValue };
/** A tool-call piece as servers send it: OpenAI's shape, but `index` is not always there. */
type ToolCallDelta = Omit<
  NonNullable<ChatCompletionChunk.Choice.Delta["tool_calls"]>[number],
  "index"
> & { index?: number };
interface CallState {
  id: string;
  name: string;
  arguments: string;
  /** Its start was handed to `startTool` (just before its first argument delta). */
  started?: true;
}

export const streamOpenAIChat = guardStream(async function* (config, request, emit, startTool) {
  const client = await createOpenAIClient(config);
  const body = buildChatBody(config, request) as unknown as ChatCompletionCreateParamsStreaming;
  const opened = await client.chat.completions
    .create(body, { signal: request.signal })
    .withResponse();
  yield* assembledStream(opened, new ChatAssembly(emit, startTool), request, "finish_reason");
});

/**
 * Accumulates chunks into one assistant message, blocks numbered in order of arrival; hands
 * each reasoning, text and argument delta to `emit` as it arrives, and each call's start (id
 * and name) to `startTool` just before its first argument delta.
 */
class ChatAssembly implements StreamAssembly<ChatCompletionChunk> {
  private text: string | null = null;
  /** OpenAI's `refusal`, kept on the message as sent (present/missing-answer.ts reads it). */
  private refusal: string | null = null;
  private reasoning: { field: string; text: string } | null = null;
  private readonly calls: CallState[] = [];
  private readonly blockIndex = new Map<string, number>();
  private usage: Usage = zeroUsage();
  private finishReason: string | null = null;

  get complete(): boolean {
    return this.finishReason !== null;
  }

  constructor(
    private readonly emit: DeltaSink,
    private readonly startTool: ToolInputStartSink,
  ) {}

  apply(chunk: ChatCompletionChunk): void {
    if (chunk.usage) this.usage = chatUsage(chunk.usage);
    const choice = chunk.choices[0];
    if (!choice) return;
    const delta = choice.delta as Record<string, unknown>;
    this.applyReasoning(delta);
    if (typeof choice.delta.refusal === "string" && choice.delta.refusal !== "") {
      this.refusal = (this.refusal ?? "") + choice.delta.refusal;
    }
    if (typeof choice.delta.content === "string" && choice.delta.content !== "") {
      this.text = (this.text ?? "") + choice.delta.content;
      this.emit(this.blockOf("text"), "text", choice.delta.content);
    }
    for (const call of choice.delta.tool_calls ?? []) this.applyCall(call);
    this.finishReason = choice.finish_reason ?? this.finishReason;
  }

  /**
   * One reasoning piece per chunk: vLLM sends each piece in both `reasoning` and
   * `reasoning_content`, so the first non-empty field is the piece and the other is ignored.
   */
  private applyReasoning(delta: Record<string, unknown>): void {
    const field = ["reasoning_content", "reasoning"].find(
      (name) => typeof delta[name] === "string" && delta[name] !== "",
    );
    if (field === undefined) return;
    const value = delta[field] as string;
    this.reasoning ??= { field, text: "" };
    this.reasoning.text += value;
    this.emit(this.blockOf("thinking"), "thinking", value);
  }

  /**
   * A tool-call piece. Servers differ: Mistral sends a whole call with no `index` (a new call
   * when its id is new, else more of the last one); some repeat the id and name on every piece,
   * which are kept once, never concatenated.
   */
  private applyCall(call: ToolCallDelta): void {
    const index = call.index ?? this.indexWithoutOne(call.id);
    const state = this.calls[index] ?? { id: "", name: "", arguments: "" };
    this.calls[index] = state;
    if (call.id && state.id === "") state.id = call.id;
    const name = call.function?.name;
    if (name && state.name === "") state.name = name;
    const args = call.function?.arguments ?? "";
    state.arguments += args;
    if (args === "") return;
    // Its block is numbered at its first argument delta, as before starts were announced.
    const block = this.blockOf(`tool:${index}`);
    if (!state.started) {
      state.started = true;
      this.startTool({ block, id: state.id, name: state.name });
    }
    this.emit(block, "tool_input", args);
  }

  /** The slot of a piece with no index: the last call, unless the piece starts a new one. */
  private indexWithoutOne(id: string | undefined): number {
    const last = this.calls.length - 1;
    const lastCall = this.calls[last];
    if (!lastCall) return this.calls.length;
    return id && id !== lastCall.id ? this.calls.length : last;
  }

  /** The block number of a kind of content (`text`, `thinking`, `tool:N`), given on first use. */
  private blockOf(key: string): number {
    let block = this.blockIndex.get(key);
    if (block === undefined) {
      block = this.blockIndex.size;
      this.blockIndex.set(key, block);
    }
    return block;
  }

  finish(requestId: string | null): StreamPart {
    const calls = this.calls.filter((call) => call !== undefined);
    const message: JsonObject = { role: "assistant", content: this.text };
    if (this.reasoning) message[this.reasoning.field] = this.reasoning.text;
    if (this.refusal !== null) message.refusal = this.refusal;
    if (calls.length > 0) {
      message.tool_calls = calls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      }));
    }
    return {
      type: "message",
      api: "openai-chat",
      content: [message],
      stopReason: this.finishReason,
      requestId,
      toolCalls: markCutCall(
        calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
        this.finishReason,
      ),
      usage: this.usage,
    };
  }
}

/** `prompt_tokens` includes cached tokens; Usage.input does not. Reasoning is part of output. */
function chatUsage(usage: NonNullable<ChatCompletionChunk["usage"]>): Usage {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    input: Math.max(0, usage.prompt_tokens - cached),
    output: usage.completion_tokens,
    cache_read: cached,
    cache_write: 0,
    reasoning: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}
