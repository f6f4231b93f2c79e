// The mock provider's neutral script format: what one response should contain, rendered into
// each wire format by its writer (anthropic-sse.ts, chat-sse.ts, responses-sse.ts), plus the
// stream modifiers the fault helpers set. Tests enqueue these on a mock server.

export type ScriptBlock =
  | { kind: "text"; text: string }
  /** Anthropic: a signed thinking block; Responses: a reasoning item whose encrypted_content
   * is the signature; Chat: `reasoning_content` deltas (the signature is not sent). */
  | { kind: "thinking"; text: string; signature: string }
  /** Anthropic: redacted_thinking; Responses: a reasoning item with only encrypted_content. */
  | { kind: "redacted_thinking"; data: string }
  | { kind: "tool"; id: string; name: string; input: Record<string, unknown> };

/** Token counts with Usage's meaning: `input` excludes cached tokens. */
export interface ScriptUsage {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
}

export interface Script {
  blocks: ScriptBlock[];
  usage?: ScriptUsage;
  /**
   * Native stop reason; the writers pick a natural one when absent. Responses: any but
   * `completed` ends the stream with response.incomplete, this as its reason.
   */
  stopReason?: string;
  /** Characters per text or thinking delta (default 8). Tool input always spans 3+ deltas. */
  chunkSize?: number;
  /** Chat only: the field reasoning streams in (default `reasoning_content`). */
  chatReasoningField?: "reasoning_content" | "reasoning";
  /**
   * Responses only: the last item is cut halfway through its deltas and never closed (no
   * output_item.done), as a response stopped at its output limit may end; `listed` keeps it,
   * in progress, in the final response's `output`, `unlisted` leaves it out.
   */
  openLastItem?: "listed" | "unlisted";
  /** Slow tokens: wait this long before each event. */
  delayMs?: number;
  /** Destroy the socket after this many events. */
  cutAfterEvents?: number;
  /** Send the wire format's in-stream error event after this many events, then end. */
  errorAfterEvents?: { events: number; type: string; message: string };
}

/** An HTTP error response in the provider's own error shape. */
export interface HttpFault {
  fault: "http";
  status: number;
  /** Anthropic `error.type` / OpenAI `error.type`. */
  errorType: string;
  message: string;
  headers?: Record<string, string>;
}

/** A fault-free stream rendered before its request arrives (see `prepareStream`). */
export interface PreparedStream {
  prepared: Buffer;
}

/**
 * A recorded stream replayed byte for byte, framing included: each event (through its blank
 * line) is its own write, as a server flushes them, so a client parses across real boundaries.
 */
export interface ReplayedStream {
  replay: Buffer;
}

export type Enqueued = Script | HttpFault | PreparedStream | ReplayedStream;

export function isHttpFault(item: Enqueued): item is HttpFault {
  return "fault" in item && item.fault === "http";
}

export function isPrepared(item: Enqueued): item is PreparedStream {
  return "prepared" in item;
}

export function isReplayed(item: Enqueued): item is ReplayedStream {
  return "replay" in item;
}

/** One server-sent event; `event` is omitted for Chat Completions' bare `data:` lines. */
export interface SseEvent {
  event?: string;
  data: string;
}

/** Splits text into pieces of `size` characters (at least one piece, possibly empty). */
export function pieces(text: string, size: number): string[] {
  if (text.length === 0) return [""];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Splits serialized tool input into at least three fragments, as real servers do. */
export function fragments(json: string): string[] {
  const size = Math.max(1, Math.ceil(json.length / 3));
  return pieces(json, size);
}

export function usageOf(script: Script): Required<ScriptUsage> {
  return {
    input: script.usage?.input ?? 10,
    output: script.usage?.output ?? 5,
    cacheRead: script.usage?.cacheRead ?? 0,
    cacheWrite: script.usage?.cacheWrite ?? 0,
    reasoning: script.usage?.reasoning ?? 0,
  };
}

export const sse = (data: unknown, event?: string): SseEvent => ({
  ...(event === undefined ? {} : { event }),
  data: typeof data === "string" ? data : JSON.stringify(data),
});
