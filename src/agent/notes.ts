// Where hook and listener output goes: notes for the model become durable `context/note`
// events (replay places them at the next step boundary, like steering), one-line notices go
// to the surface as `agent/notice`. Called by agent.ts, compose-session.ts, turn.ts and
// tool-calls.ts.
import type { SessionWriter } from "../session/writer.ts";
import type { AgentBus, NoticeSource } from "./bus-events.ts";

interface NoteSink {
  readonly bus: AgentBus;
  readonly writer: SessionWriter;
}

/** Appends one `context/note` per text. */
export function recordNotes(
  sink: NoteSink,
  turn: number,
  source: string,
  texts: readonly string[],
  callId?: string,
): void {
  for (const text of texts) {
    sink.writer.append({
      type: "context/note",
      turn,
      source,
      ...(callId === undefined ? {} : { call_id: callId }),
      text,
    });
  }
}

/** Emits each line as an `agent/notice`. */
export function notify(sink: NoteSink, source: NoticeSource, lines: readonly string[]): void {
  for (const message of lines) sink.bus.emit("agent/notice", { message, source });
}

/** A hook event's notes: notes for the model recorded, notices shown. */
export function applyHookNotes(
  sink: NoteSink,
  turn: number,
  event: string,
  notes: { context: readonly string[]; notices: readonly string[] },
  callId?: string,
): void {
  notify(sink, "hook", notes.notices);
  recordNotes(sink, turn, `hook:${event}`, notes.context, callId);
}

/** How a hook or plugin stop reads for the user: "stopped by hook:./x.sh: reason". */
export function stopMessage(stop: { reason: string; by: string }): string {
  return `stopped by ${stop.by}: ${stop.reason}`;
}
