// Renders a neutral script as an Anthropic Messages SSE stream: message_start, ping,
// content_block_start/delta/stop per block (text, thinking + signature, redacted_thinking,
// tool_use with input_json_delta fragments), message_delta with usage, message_stop.
import {
  fragments,
  pieces,
  type Script,
  type ScriptBlock,
  type SseEvent,
  sse,
  usageOf,
} from "./script.ts";

export function renderAnthropic(script: Script, model: string, id: string): SseEvent[] {
  const usage = usageOf(script);
  const cacheUsage = {
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
  };
  const events: SseEvent[] = [
    event("message_start", {
      message: {
        id: `msg_${id}`,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: 1, ...cacheUsage },
      },
    }),
    event("ping", {}),
  ];
  script.blocks.forEach((block, index) => {
    events.push(...renderBlock(block, index, script.chunkSize ?? 8));
  });
  const hasTool = script.blocks.some((block) => block.kind === "tool");
  events.push(
    event("message_delta", {
      delta: {
        stop_reason: script.stopReason ?? (hasTool ? "tool_use" : "end_turn"),
        stop_sequence: null,
      },
      usage: {
        input_tokens: usage.input,
        output_tokens: usage.output,
        ...cacheUsage,
        output_tokens_details: { thinking_tokens: usage.reasoning },
      },
    }),
    event("message_stop", {}),
  );
  return events;
}

function renderBlock(block: ScriptBlock, index: number, size: number): SseEvent[] {
  const start = (content_block: unknown) => event("content_block_start", { index, content_block });
  const delta = (value: unknown) => event("content_block_delta", { index, delta: value });
  const stop = event("content_block_stop", { index });
  switch (block.kind) {
    case "text":
      return [
        start({ type: "text", text: "" }),
        ...pieces(block.text, size).map((text) => delta({ type: "text_delta", text })),
        stop,
      ];
    case "thinking":
      return [
        start({ type: "thinking", thinking: "", signature: "" }),
        ...pieces(block.text, size).map((thinking) => delta({ type: "thinking_delta", thinking })),
        delta({ type: "signature_delta", signature: block.signature }),
        stop,
      ];
    case "redacted_thinking":
      return [start({ type: "redacted_thinking", data: block.data }), stop];
    case "tool":
      return [
        start({ type: "tool_use", id: block.id, name: block.name, input: {} }),
        ...fragments(JSON.stringify(block.input)).map((partial_json) =>
          delta({ type: "input_json_delta", partial_json }),
        ),
        stop,
      ];
  }
}

function event(type: string, body: Record<string, unknown>): SseEvent {
  return sse({ type, ...body }, type);
}

export function anthropicErrorBody(type: string, message: string): unknown {
  return { type: "error", error: { type, message } };
}

export function anthropicErrorEvent(type: string, message: string): SseEvent {
  return sse(anthropicErrorBody(type, message), "error");
}
