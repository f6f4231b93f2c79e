// The checkpoints of a session as its log records them, folded from `checkpoint/taken` and
// `checkpoint/rewind` events: the prompts, each numbered state of the workspace, the state last
// recorded, and which state `--to N` (before the Nth prompt) means. Pure; read by rewind.ts,
// the `checkpoints` command and the agent when it resumes.
import type { EventOf, SessionEvent } from "../session/events.ts";
import type { RecordedState } from "./store.ts";

interface Prompt {
  /** 1-based, in the order sent. */
  n: number;
  seq: number;
  text: string;
}

/** A numbered state of the workspace: a checkpoint taken, or the state a rewind left. */
export interface State extends RecordedState {
  checkpoint: number;
  seq: number;
  event: EventOf<"checkpoint/taken"> | EventOf<"checkpoint/rewind">;
}

export interface Timeline {
  prompts: Prompt[];
  states: State[];
  rewinds: EventOf<"checkpoint/rewind">[];
}

export function timelineOf(events: Iterable<SessionEvent>): Timeline {
  const timeline: Timeline = { prompts: [], states: [], rewinds: [] };
  for (const event of events) {
    if (event.type === "user/message" && !event.blocked) {
      timeline.prompts.push({ n: timeline.prompts.length + 1, seq: event.seq, text: event.text });
    } else if (event.type === "checkpoint/taken") {
      const { checkpoint, seq, tree, modes, file_count: fileCount } = event;
      timeline.states.push({ checkpoint, seq, tree, modes, fileCount, event });
    } else if (event.type === "checkpoint/rewind") {
      timeline.rewinds.push(event);
      if (event.checkpoint !== undefined && event.tree !== undefined) {
        const { checkpoint, seq, tree, modes } = event;
        timeline.states.push({
          checkpoint,
          seq,
          tree,
          modes,
          fileCount: event.file_count ?? 0,
          event,
        });
      }
    }
  }
  return timeline;
}

/** The state the log recorded last, or null before any checkpoint. */
export function lastState(timeline: Timeline): State | null {
  return timeline.states.at(-1) ?? null;
}

/** The next checkpoint number. */
export function nextCheckpoint(timeline: Timeline): number {
  return (timeline.states.at(-1)?.checkpoint ?? 0) + 1;
}

/**
 * The workspace as it was before prompt `n` was sent: the last state recorded before it, else
 * (no change before it) the session's first checkpoint, taken before its first change.
 */
export function stateBeforePrompt(timeline: Timeline, n: number): State | null {
  const prompt = timeline.prompts[n - 1];
  if (!prompt) return null;
  const before = timeline.states.filter((state) => state.seq < prompt.seq).at(-1);
  return before ?? timeline.states[0] ?? null;
}

/** The state numbered `checkpoint`. */
export function stateNumbered(timeline: Timeline, checkpoint: number): State | null {
  return timeline.states.find((state) => state.checkpoint === checkpoint) ?? null;
}
