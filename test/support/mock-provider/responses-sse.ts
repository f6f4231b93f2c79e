// Renders a neutral script as a Responses API SSE stream of typed events: response.created,
// output_item.added/done per item (reasoning with encrypted_content, message, function_call),
// the text, reasoning-summary and argument deltas, then response.completed with usage (or,
// given a stop reason, response.incomplete with it as `incomplete_details.reason`).
import {
  fragments,
  pieces,
  type Script,
  type ScriptBlock,
  type SseEvent,
  sse,
  usageOf,
} from "./script.ts";

export function renderResponses(script: Script, model: string, id: string): SseEvent[] {
  let sequence = 0;
  const event = (type: string, body: Record<string, unknown>) =>
    sse({ type, sequence_number: sequence++, ...body }, type);
  const response = (status: string, output: unknown[], usage: unknown) => ({
    id: `resp_${id}`,
    object: "response",
    created_at: 1_700_000_000,
    status,
    model,
    output,
    usage,
    error: null,
    incomplete_details: null,
  });
  const events: SseEvent[] = [
    event("response.created", { response: response("in_progress", [], null) }),
  ];
  const items: unknown[] = [];
  script.blocks.forEach((block, output_index) => {
    const rendered = renderItem(block, `${id}_${output_index}`, script.chunkSize ?? 8);
    events.push(event("response.output_item.added", { output_index, item: rendered.added }));
    const open = script.openLastItem !== undefined && output_index === script.blocks.length - 1;
    const deltas = open ? rendered.deltas.slice(0, -1) : rendered.deltas;
    for (const [type, body] of deltas) events.push(event(type, { output_index, ...body }));
    if (open) {
      if (script.openLastItem === "listed") items.push(inProgress(rendered.added, deltas));
      return;
    }
    events.push(event("response.output_item.done", { output_index, item: rendered.done }));
    items.push(rendered.done);
  });
  const reason = script.stopReason;
  if (reason === undefined || reason === "completed") {
    const done = response("completed", items, responsesUsage(script));
    events.push(event("response.completed", { response: done }));
  } else {
    // Any other stop reason is why the response is incomplete (max_output_tokens, content_filter).
    const cut = { ...response("incomplete", items, responsesUsage(script)) };
    events.push(
      event("response.incomplete", { response: { ...cut, incomplete_details: { reason } } }),
    );
  }
  return events;
}

interface RenderedItem {
  added: Record<string, unknown>;
  deltas: [string, Record<string, unknown>][];
  done: Record<string, unknown>;
}

function renderItem(block: ScriptBlock, id: string, size: number): RenderedItem {
  switch (block.kind) {
    case "thinking":
    case "redacted_thinking": {
      const text = block.kind === "thinking" ? block.text : "";
      const encrypted = block.kind === "thinking" ? block.signature : block.data;
      const item_id = `rs_${id}`;
      return {
        added: { id: item_id, type: "reasoning", summary: [] },
        deltas: text
          ? pieces(text, size).map((delta) => [
              "response.reasoning_summary_text.delta",
              { item_id, summary_index: 0, delta },
            ])
          : [],
        done: {
          id: item_id,
          type: "reasoning",
          summary: text ? [{ type: "summary_text", text }] : [],
          encrypted_content: encrypted,
        },
      };
    }
    case "text": {
      const item_id = `msg_${id}`;
      const message = { id: item_id, type: "message", role: "assistant" };
      return {
        added: { ...message, status: "in_progress", content: [] },
        deltas: pieces(block.text, size).map((delta) => [
          "response.output_text.delta",
          { item_id, content_index: 0, delta, logprobs: [] },
        ]),
        done: {
          ...message,
          status: "completed",
          content: [{ type: "output_text", text: block.text, annotations: [], logprobs: [] }],
        },
      };
    }
    case "tool": {
      const item_id = `fc_${id}`;
      const args = JSON.stringify(block.input);
      const call = { id: item_id, type: "function_call", call_id: block.id, name: block.name };
      return {
        added: { ...call, arguments: "", status: "in_progress" },
        deltas: fragments(args).map((delta) => [
          "response.function_call_arguments.delta",
          { item_id, delta },
        ]),
        done: { ...call, arguments: args, status: "completed" },
      };
    }
  }
}

/** An item never closed, as the final response lists it: what its deltas said so far. */
function inProgress(
  added: Record<string, unknown>,
  deltas: [string, Record<string, unknown>][],
): Record<string, unknown> {
  const streamed = deltas.map(([, body]) => String(body.delta)).join("");
  return added.type === "function_call" ? { ...added, arguments: streamed } : added;
}

function responsesUsage(script: Script): unknown {
  const usage = usageOf(script);
  const input = usage.input + usage.cacheRead;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheRead },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: input + usage.output,
  };
}

export function responsesErrorEvent(type: string, message: string): SseEvent {
  return sse({ type: "error", code: type, message, param: null, sequence_number: 0 }, "error");
}
