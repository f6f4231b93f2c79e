// A rewind, start to finish: which state it goes back to (before prompt N, a checkpoint, or
// the state an earlier rewind replaced: redo), the state it replaces captured first (so it can
// be undone), files changed outside codewhale since the last checkpoint refused unless forced,
// a journal beside the store (synced before any file changes) so a rewind killed half way is
// finished by the next rewind or the next opening of the session, then the `checkpoint/rewind`
// event. Called by the agent (agent.ts) and the `rewind` command.
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { RewindConflictError, UsageError } from "../errors.ts";
import type { EventInput, EventOf, SessionEvent } from "../session/events.ts";
import { conflictChange } from "./conflict-change.ts";
import {
  applyRestore,
  checkRelative,
  planRestore,
  type RestoreStep,
  removeLeftovers,
} from "./restore.ts";
import type { Capture, CapturedFile, CheckpointStore } from "./store.ts";
import {
  lastState,
  nextCheckpoint,
  type State,
  stateBeforePrompt,
  stateNumbered,
  type Timeline,
  timelineOf,
} from "./timeline.ts";

type RewindScope = "code" | "conversation" | "both";

export interface RewindRequest {
  scope: RewindScope;
  /** Back to the moment before the Nth prompt (1-based). */
  prompt?: number;
  /** Back to a numbered checkpoint. */
  checkpoint?: number;
  /** Undo the last rewind. */
  redo?: boolean;
  /** Only finish a rewind that was interrupted (there must be one). */
  finish?: boolean;
  /** Only this file (or folder), workspace-relative. */
  file?: string;
  /** Overwrite files changed outside codewhale since the last checkpoint. */
  force?: boolean;
  /** Who asked: cli, terminal, acp, stream-json. */
  by: string;
}

interface RewindContext {
  store: CheckpointStore;
  /** The session's events so far. */
  events: readonly SessionEvent[];
  /** Appends an event to the session log (its one writer). */
  append: (event: EventInput) => SessionEvent;
  /** Syncs the log to disk (before the journal names a checkpoint it records). */
  sync: () => void;
}

export interface RewindDone {
  event: EventOf<"checkpoint/rewind">;
  files: CapturedFile[];
}

/**
 * What a journal holds: the steps to apply, the event to write once they are applied, and the
 * checkpoint number that event takes (so a rewind recorded before its journal was removed is
 * not recorded twice).
 */
interface Journal {
  steps: RestoreStep[];
  event: EventInput & { type: "checkpoint/rewind" };
  checkpoint?: number;
}

/** Whether the store at `dir` holds the journal of a rewind that was interrupted. */
export function interruptedRewind(dir: string): boolean {
  return existsSync(join(dir, JOURNAL));
}

const JOURNAL = "rewind.json";

/** Carries out a rewind and records it; throws RewindConflictError, refusing, before any change. */
export async function rewind(ctx: RewindContext, request: RewindRequest): Promise<RewindDone> {
  const finished = await finishInterrupted(ctx);
  if (request.finish) {
    if (finished?.type !== "checkpoint/rewind") {
      throw new UsageError("no interrupted rewind to finish in this session");
    }
    return { event: finished, files: finished.files };
  }
  const timeline = timelineOf(finished ? [...ctx.events, finished] : ctx.events);
  const target = chooseTarget(timeline, request);
  const base = {
    type: "checkpoint/rewind" as const,
    scope: target.scope,
    by: request.by,
    ...(request.prompt !== undefined ? { prompt: request.prompt } : {}),
    ...(target.historyUntil !== undefined ? { history_until: target.historyUntil } : {}),
    ...(target.redoOf !== undefined ? { redo_of: target.redoOf } : {}),
  };
  if (target.scope === "conversation") {
    return { event: appendRewind(ctx, { ...base, files: [] }), files: [] };
  }
  const state = target.state;
  if (!state) throw new UsageError(noStateReason(request));
  if (request.file !== undefined) checkRelative(request.file.replace(/\/+$/, ""));
  const { store } = ctx;
  store.restoreRecorded(lastState(timeline));
  const { now, redoPoint } = await captureNow(ctx, timeline);
  const outside = outsideSince(timeline, state.seq, now);
  const from = { tree: now.tree, modes: store.modesOf(now.modes) };
  const to = { tree: state.tree, modes: store.modesOf(state.modes) };
  const steps = await planRestore(store.place, from, to, request.file);
  const conflicts = steps.map((step) => step.path).filter((path) => outside.has(path));
  if (conflicts.length > 0 && !request.force) {
    const changes = conflicts.map((path) => conflictChange(store, steps, path));
    throw new RewindConflictError(conflicts, changes);
  }
  const event = {
    ...base,
    to: state.checkpoint,
    ...(request.file !== undefined ? { file: request.file } : {}),
    redo_point: redoPoint,
    ...(conflicts.length > 0 ? { forced: conflicts } : {}),
    files: [] as CapturedFile[],
  };
  return apply(ctx, { steps, event }, redoPoint + 1);
}

/** Applies a journal's steps, captures the result and records the rewind; removes the journal. */
async function apply(
  ctx: RewindContext,
  journal: Journal,
  checkpoint: number,
): Promise<RewindDone> {
  const path = join(ctx.store.dir, JOURNAL);
  // The journal names the checkpoint of the state replaced: it is on disk first.
  ctx.sync();
  writeDurably(`${path}.tmp`, JSON.stringify({ ...journal, checkpoint }));
  renameSync(`${path}.tmp`, path);
  const files = applyRestore(ctx.store.place, journal.steps);
  const after = await ctx.store.capture();
  const event = {
    ...journal.event,
    checkpoint,
    tree: after.tree,
    ...(after.modes ? { modes: after.modes } : {}),
    file_count: after.fileCount,
    files,
  };
  const written = appendRewind(ctx, event);
  ctx.store.markRecorded(after);
  rmSync(path, { force: true });
  return { event: written, files };
}

/** Writes `text` to `path` and syncs it, so the journal is on disk before any file changes. */
function writeDurably(path: string, text: string): void {
  const fd = openSync(path, "w", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function appendRewind(ctx: RewindContext, event: Journal["event"]): EventOf<"checkpoint/rewind"> {
  return ctx.append(event) as EventOf<"checkpoint/rewind">;
}

/**
 * A rewind killed after it began changing files left its journal: apply the same steps again
 * (each is idempotent) and record it, marked `recovered`. Returns the event, or null. Run by
 * every rewind first, and when a session with such a journal is opened (`recoverRewind`).
 */
export async function recoverRewind(ctx: RewindContext): Promise<SessionEvent | null> {
  return finishInterrupted(ctx);
}

async function finishInterrupted(ctx: RewindContext): Promise<SessionEvent | null> {
  let journal: Journal;
  try {
    journal = JSON.parse(readFileSync(join(ctx.store.dir, JOURNAL), "utf8")) as Journal;
  } catch {
    return null;
  }
  const timeline = timelineOf(ctx.events);
  const recorded =
    journal.checkpoint === undefined ? null : stateNumbered(timeline, journal.checkpoint);
  if (recorded?.event.type === "checkpoint/rewind") {
    // Killed after the rewind was recorded, before its journal was removed: nothing to do.
    rmSync(join(ctx.store.dir, JOURNAL), { force: true });
    return null;
  }
  if (
    journal.event.redo_point !== undefined &&
    !stateNumbered(timeline, journal.event.redo_point)
  ) {
    // A journal of a build that wrote it before its redo point was on disk: no redo from it.
    const { redo_point: _lost, ...event } = journal.event;
    journal = { ...journal, event };
  }
  ctx.store.restoreRecorded(lastState(timeline));
  let appended: SessionEvent | null = null;
  const recording = {
    ...ctx,
    append: (event: EventInput) => {
      appended = ctx.append(event);
      return appended;
    },
  };
  removeLeftovers(ctx.store.place, journal.steps);
  const recovered = { ...journal, event: { ...journal.event, recovered: true as const } };
  await apply(recording, recovered, nextCheckpoint(timeline));
  return appended;
}

interface Target {
  scope: RewindScope;
  state: State | null;
  historyUntil?: number;
  redoOf?: number;
}

function chooseTarget(timeline: Timeline, request: RewindRequest): Target {
  if (request.redo) {
    const last = timeline.rewinds.at(-1);
    if (!last) throw new UsageError("nothing to redo: this session has no rewind");
    const state = last.redo_point === undefined ? null : stateNumbered(timeline, last.redo_point);
    return { scope: last.scope, state, redoOf: last.seq };
  }
  if (request.checkpoint !== undefined) {
    const state = stateNumbered(timeline, request.checkpoint);
    if (!state) throw new UsageError(`no checkpoint ${request.checkpoint} in this session`);
    return { scope: request.scope === "both" ? "code" : request.scope, state };
  }
  const n = request.prompt ?? timeline.prompts.length;
  const prompt = timeline.prompts[n - 1];
  if (!prompt) {
    throw new UsageError(`no prompt ${n}: the session has ${timeline.prompts.length} prompt(s)`);
  }
  const state = stateBeforePrompt(timeline, n);
  const conversation = request.scope !== "code";
  return { scope: request.scope, state, ...(conversation ? { historyUntil: prompt.seq } : {}) };
}

/**
 * The state the rewind replaces: captured, and recorded as a checkpoint (`at: rewind`) unless
 * it is the last one recorded. Files it finds changed since then were changed outside codewhale.
 */
async function captureNow(ctx: RewindContext, timeline: Timeline) {
  const last = lastState(timeline);
  const now: Capture = await ctx.store.capture();
  if (last && !now.changed && last.event.type === "checkpoint/taken") {
    return { now, redoPoint: last.checkpoint };
  }
  const checkpoint = nextCheckpoint(timeline);
  ctx.append({
    type: "checkpoint/taken",
    checkpoint,
    at: "rewind",
    tree: now.tree,
    ...(now.modes ? { modes: now.modes } : {}),
    ...(last ? {} : { base: true as const }),
    file_count: now.fileCount,
    files: now.files,
    ...(now.skipped.length > 0 ? { skipped: now.skipped } : {}),
  });
  ctx.store.markRecorded(now);
  return { now, redoPoint: checkpoint };
}

/**
 * The files changed outside codewhale since the state at `since`: those the checkpoints
 * taken before a call or at a rewind found changed (not by a call), those a checkpoint after a
 * call found changed before the call began (`outside`), and those changed since the last
 * checkpoint.
 */
function outsideSince(timeline: Timeline, since: number, now: Capture): Set<string> {
  const outside = new Set(now.files.map((file) => file.path));
  for (const state of timeline.states) {
    const event = state.event;
    if (state.seq <= since || event.type !== "checkpoint/taken" || event.base) continue;
    if (event.at === "after") for (const path of event.outside ?? []) outside.add(path);
    else for (const file of event.files) outside.add(file.path);
  }
  return outside;
}

function noStateReason(request: RewindRequest): string {
  if (request.redo) return "nothing to redo: the last rewind changed no files";
  return "no checkpoint to rewind the code to: codewhale changed no file in this session before that point";
}
