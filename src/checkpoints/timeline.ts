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
/** The files each prompt's turn changed (checkpoints taken after it, before the next one). */
export function filesByPrompt(timeline: Timeline): Map<number, string[]> {
  const byPrompt = new Map<number, string[]>();
  for (const prompt of timeline.prompts) {
    const next = timeline.prompts[prompt.n]?.seq ?? Number.POSITIVE_INFINITY;
    const files = new Set<string>();
    for (const state of timeline.states) {
      if (state.seq <= prompt.seq || state.seq >= next) continue;
      if (state.event.type === "checkpoint/taken" && state.event.at === "after") {
        for (const file of state.event.files) files.add(file.path);
      }
    }
    byPrompt.set(prompt.n, [...files].sort());
  }
  return byPrompt;
}

/** What `sessions verify` says of a log's checkpoints, or the first event that breaks them. */
type TimelineCheck =
  | { ok: true; checkpoints: number; rewinds: number }
  | { ok: false; seq: number; reason: string };

/**
 * Checks that the checkpoint events agree with each other: states numbered 1, 2, 3… in log
 * order; a rewind restores an earlier state, names an earlier redo point, cuts the history at
 * a prompt before it, and undoes an earlier rewind.
 */
export function checkTimeline(events: Iterable<SessionEvent>): TimelineCheck {
  const numbers = new Set<number>();
  const promptSeqs = new Set<number>();
  const rewindSeqs = new Set<number>();
  let rewinds = 0;
  for (const event of events) {
    if (event.type === "user/message") promptSeqs.add(event.seq);
    if (event.type !== "checkpoint/taken" && event.type !== "checkpoint/rewind") continue;
    const bad = (reason: string): TimelineCheck => ({ ok: false, seq: event.seq, reason });
    if (event.type === "checkpoint/rewind") {
      rewinds++;
      if (event.to !== undefined && !numbers.has(event.to))
        return bad(`rewind to checkpoint ${event.to}, which comes later or not at all`);
      if (event.redo_point !== undefined && !numbers.has(event.redo_point))
        return bad(`redo point ${event.redo_point} is not an earlier checkpoint`);
      if (event.history_until !== undefined && !promptSeqs.has(event.history_until))
        return bad(`history cut at seq ${event.history_until}, which is not an earlier prompt`);
      if (event.redo_of !== undefined && !rewindSeqs.has(event.redo_of))
        return bad(`undoes seq ${event.redo_of}, which is not an earlier rewind`);
      rewindSeqs.add(event.seq);
    }
    const number = event.checkpoint;
    if (number === undefined) continue;
    if (number !== numbers.size + 1)
      return bad(`checkpoint ${number} where ${numbers.size + 1} was due`);
    numbers.add(number);
  }
  return { ok: true, checkpoints: numbers.size, rewinds };
}
