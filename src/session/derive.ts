// Derives the provider-neutral request history from session events. Assistant turns are the
// provider-native messages replayed verbatim from `assistant/message`, never rebuilt from
// chunks. Pure: feed it events (all of them, or a prefix for a snapshot) and read the result.
import { summaryMessages } from "./compaction-summary.ts";
import type { EventOf, JsonValue, SessionEvent } from "./events.ts";

/** One message of the history a provider adapter turns into a request. */
export type HistoryMessage =
  | {
      role: "user";
      text: string;
      seq: number;
      steering?: boolean;
      /** Set for a `context/note`: what produced it (`hook:PostToolUse`, `plugin:x`). */
      note?: string;
      /**
       * Set for the messages standing for a `context/compaction` (compaction-summary.ts: its
       * `seq` is the compaction's): codewhale's fixed texts around the summary.
       */
      summary?: true;
      /**
       * The images of a `user/message`, by hash; the loop fills `data` (base64) from the
       * session's image store for a model that takes images (agent/step.ts).
       */
      images?: HistoryImage[];
    }
  | {
      role: "assistant";
      api: EventOf<"assistant/message">["api"];
      provider: string;
      model: string;
      content: JsonValue[];
      seq: number;
      /** Set for the summary of a `context/compaction` (compaction-summary.ts). */
      summary?: true;
    }
  | {
      role: "tool";
      call_id: string;
      name: string;
      content: string;
      is_error: boolean;
      seq: number;
      /** True when synthesized for a call whose result was never recorded (a crash). */
      interrupted?: boolean;
      /**
       * The result's images, for models that take them: its `blocks` (with `data`), then its
       * stored `images` (by hash; the loop fills `data` as for a prompt's).
       */
      images?: HistoryImage[];
    };

/**
 * An image as the history carries it: one stored beside the log has its `sha256` (and `data`
 * only once the loop read it for a request); one inline in a result (an MCP block) its `data`.
 */
export interface HistoryImage {
  mimeType: string;
  bytes: number;
  sha256?: string;
  /** The image as base64, when the request carries it. */
  data?: string;
}

/** The text the model receives for a tool call that was recorded but never returned. */
export const INTERRUPTED_RESULT =
  "The tool call was interrupted before it returned (the session ended while it ran). It was not re-run; run it again if it is still needed.";

/** The text the model receives for a `context/note`: a header naming its source, then the note. */
export function noteText(event: Pick<EventOf<"context/note">, "source" | "call_id" | "text">) {
  const about = event.call_id === undefined ? "" : ` about tool call ${event.call_id}`;
  return `[codewhale] Note from ${event.source}${about}:\n${event.text}`;
}

/**
 * Incremental deriver: push events in log order, read `messages()` at any point. Rules:
 * - `user/message` and `steering/message` become user messages. Steering is appended the
 *   moment the user sends it, and reaches the model at the next step boundary: it is placed
 *   where the next `step/start` (or user message, or the end) comes, so after the assistant
 *   message being streamed and its tool results. A `user/message` with `blocked` set (a hook
 *   refused it) was never sent and contributes nothing.
 * - `context/note` becomes a user message (see `noteText`) placed exactly like steering: at
 *   the next step boundary, so it never changes a message an earlier request carried.
 * - `assistant/message` becomes an assistant message with its native content verbatim.
 * - `step/failed` contributes nothing: a failed partial is kept in the log, never replayed.
 * - `tool/result` becomes a tool message after its call's assistant message.
 * - a `tool/call` with no `tool/result` before the next user input or assistant message (or
 *   the end) gets a synthesized error result saying it was interrupted and not re-run.
 * - `context/compaction` replaces the history derived so far by its summary (codewhale's fixed
 *   user message, then the summary as an assistant message: `summaryMessages`), then the last
 *   user message if the summary covered it
 *   (`kept_user_seq`), then the messages from the one whose seq is `kept_from_seq` on,
 *   verbatim. The compaction chose that cut at an assistant or user message, so a kept
 *   assistant message keeps its tool results (and its signed thinking, replayed as is). The
 *   summarising request's own events (`compaction/*`) contribute nothing.
 * - `checkpoint/rewind` with a conversation scope makes the history what it was before the
 *   prompt whose seq is `history_until` (the events after it stay in the log, rewound); one
 *   with `redo_of` makes it what it was before the rewind at that seq.
 */
export class MessageDeriver {
  /** Grows by push only; a compaction or rewind replaces it (so a mark's prefix stays valid). */
  private out: HistoryMessage[] = [];
  /**
   * Where the history stood before each prompt and before each conversation rewind, by seq:
   * the array then and its length (an array is only appended to until it is replaced).
   */
  private readonly marks = new Map<number, { out: HistoryMessage[]; length: number }>();
  private readonly open = new Map<string, { name: string; seq: number }>();
  /** Steering and notes appended since the last request began; they reach the model with the next one. */
  private steering: HistoryMessage[] = [];

  push(event: SessionEvent): void {
    switch (event.type) {
      case "user/message":
        if (event.blocked) break;
        this.closeOpenCalls();
        this.flushSteering();
        this.marks.set(event.seq, { out: this.out, length: this.out.length });
        this.out.push({
          role: "user",
          text: event.text,
          seq: event.seq,
          ...(event.images && event.images.length > 0
            ? {
                images: event.images.map(storedImage),
              }
            : {}),
        });
        break;
      case "steering/message":
        this.steering.push({ role: "user", text: event.text, seq: event.seq, steering: true });
        break;
      case "context/note":
        this.steering.push({
          role: "user",
          text: noteText(event),
          seq: event.seq,
          note: event.source,
        });
        break;
      case "step/start":
        this.flushSteering();
        break;
      case "assistant/message":
        this.closeOpenCalls();
        this.out.push({
          role: "assistant",
          api: event.api,
          provider: event.provider,
          model: event.model,
          content: event.content,
          seq: event.seq,
        });
        break;
      case "tool/call":
        this.open.set(event.call_id, { name: event.name, seq: event.seq });
        break;
      case "tool/result":
        this.pushResult(event);
        break;
      case "context/compaction":
        this.compact(event);
        break;
      case "checkpoint/rewind":
        this.rewind(event);
        break;
      default:
        break;
    }
  }

  /** The history so far, with interrupted calls closed. Does not change the deriver. */
  messages(): HistoryMessage[] {
    return [...this.out, ...this.interruptedResults(), ...this.steering];
  }

  /** Call ids that have a `tool/call` but no `tool/result` yet. */
  openCalls(): string[] {
    return [...this.open.keys()];
  }

  /** The messages derived so far, for a compaction to choose its cut (read only). */
  current(): readonly HistoryMessage[] {
    return this.out;
  }

  private compact(event: EventOf<"context/compaction">): void {
    this.closeOpenCalls();
    const from =
      event.kept_from_seq === undefined
        ? this.out.length
        : this.out.findIndex((message) => message.seq === event.kept_from_seq);
    const cut = from < 0 ? this.out.length : from;
    const user =
      event.kept_user_seq === undefined
        ? undefined
        : this.out
            .slice(0, cut)
            .find((message) => message.role === "user" && message.seq === event.kept_user_seq);
    const kept = this.out.slice(cut);
    this.out = [];
    this.out.push(...summaryMessages(event.summary, event.seq, user ?? kept[0]));
    if (user) this.out.push(user);
    for (const message of kept) this.out.push(message);
  }

  /**
   * A conversation rewind: the history becomes what it was before the prompt at
   * `history_until`; a redo (`redo_of`) brings back what it was before that rewind.
   */
  private rewind(event: EventOf<"checkpoint/rewind">): void {
    if (event.scope === "code") return;
    const to = event.redo_of ?? event.history_until;
    const mark = to === undefined ? undefined : this.marks.get(to);
    if (!mark) return;
    this.closeOpenCalls();
    this.flushSteering();
    this.marks.set(event.seq, { out: this.out, length: this.out.length });
    this.out = mark.out.slice(0, mark.length);
  }

  private pushResult(event: EventOf<"tool/result">): void {
    const call = this.open.get(event.call_id);
    this.open.delete(event.call_id);
    this.out.push({
      role: "tool",
      call_id: event.call_id,
      name: call?.name ?? "unknown",
      content: event.content,
      is_error: event.is_error,
      seq: event.seq,
      ...(event.interrupted ? { interrupted: true } : {}),
      ...withImages([
        ...(event.blocks ?? []).map((block) => ({
          mimeType: block.mime_type,
          bytes: block.bytes,
          data: block.data,
        })),
        ...(event.images ?? []).map(storedImage),
      ]),
    });
  }

  private interruptedResults(): HistoryMessage[] {
    return [...this.open].map(([call_id, call]) => ({
      role: "tool" as const,
      call_id,
      name: call.name,
      content: INTERRUPTED_RESULT,
      is_error: true,
      seq: call.seq,
      interrupted: true,
    }));
  }

  private closeOpenCalls(): void {
    this.out.push(...this.interruptedResults());
    this.open.clear();
  }

  private flushSteering(): void {
    this.out.push(...this.steering);
    this.steering = [];
  }
}

/** An image of an event's `images` (stored beside the log), as the history carries it. */
function storedImage(image: { sha256: string; media_type: string; bytes: number }): HistoryImage {
  return { sha256: image.sha256, mimeType: image.media_type, bytes: image.bytes };
}

function withImages(images: HistoryImage[]): { images?: HistoryImage[] } {
  return images.length > 0 ? { images } : {};
}

/** The provider-neutral request history of a sequence of events. */
export function deriveMessages(events: Iterable<SessionEvent>): HistoryMessage[] {
  const deriver = new MessageDeriver();
  for (const event of events) deriver.push(event);
  return deriver.messages();
}
