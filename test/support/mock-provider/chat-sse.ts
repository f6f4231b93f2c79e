// Renders a neutral script as a Chat Completions SSE stream: `data:` chunks whose
// choices[0].delta carries content, reasoning_content or tool_calls fragments, a finish chunk,
// the include_usage chunk with empty choices, then `[DONE]`.
import { fragments, pieces, type Script, type SseEvent, sse, usageOf } from "./script.ts";

export function renderChat(script: Script, model: string, id: string): SseEvent[] {
  const base = {
    id: `chatcmpl-${id}`,
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
  };
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) =>
    sse({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason }] });
  const size = script.chunkSize ?? 8;
  const events: SseEvent[] = [chunk({ role: "assistant", content: "" })];
  let toolIndex = 0;
  for (const block of script.blocks) {
    if (block.kind === "text") {
      events.push(...pieces(block.text, size).map((content) => chunk({ content })));
    } else if (block.kind === "thinking") {
      const field = script.chatReasoningField ?? "reasoning_content";
      events.push(...pieces(block.text, size).map((text) => chunk({ [field]: text })));
    } else if (block.kind === "tool") {
      const index = toolIndex++;
      events.push(
        chunk({
          tool_calls: [
            {
              index,
              id: block.id,
              type: "function",
              function: { name: block.name, arguments: "" },
            },
          ],
        }),
        ...fragments(JSON.stringify(block.input)).map((args) =>
          chunk({ tool_calls: [{ index, function: { arguments: args } }] }),
        ),
      );
    }
  }
  events.push(chunk({}, script.stopReason ?? (toolIndex > 0 ? "tool_calls" : "stop")));
  events.push(sse({ ...base, choices: [], usage: chatUsage(script) }), sse("[DONE]"));
  return events;
}

function chatUsage(script: Script): unknown {
  const usage = usageOf(script);
  const prompt = usage.input + usage.cacheRead;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.output,
    total_tokens: prompt + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead },
    completion_tokens_details: { reasoning_tokens: usage.reasoning },
  };
}

export function openaiErrorBody(type: string, message: string): unknown {
  return { error: { message, type, param: null, code: type } };
}

export function chatErrorEvent(type: string, message: string): SseEvent {
  return sse(openaiErrorBody(type, message));
}
