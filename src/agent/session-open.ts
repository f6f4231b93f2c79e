// Finds and opens the session log an agent writes to: a new one, `--resume <id|prefix|short
// id>`, or `--continue` (the session of this project, or outside one of this cwd, with the
// newest activity). On resume it closes what a crash
// left open: tool calls without a result get an interrupted result (never re-run) and an
// unfinished turn gets its `turn/end`. With receipts, a log to resume must pass its signed
// checkpoints and the checkpoint index too, and the writer signs. Called by compose-session.ts.
import { isAbsolute, resolve } from "node:path";
import { isWithin, projectRootOf } from "../config/index.ts";
import { SessionCorruptError, SessionLockedError, UsageError } from "../errors.ts";
import { readNative } from "../providers/neutral.ts";
import type { CheckpointSigner } from "../session/checkpoint.ts";
import { INTERRUPTED_RESULT } from "../session/derive.ts";
import type { EventInput, JsonValue, SessionEvent } from "../session/events.ts";
import { liveLockOwner } from "../session/lock.ts";
import { findSession, listSessionFiles, sessionIdOfPath } from "../session/paths.ts";
import { type ReadSummary, readSession } from "../session/reader.ts";
import { type ReceiptTrust, ReceiptVerifier } from "../session/receipt.ts";
import { summarizeHead } from "../session/summary.ts";
import { SessionWriter } from "../session/writer.ts";
import { interruptedResult } from "./tool-results.ts";

interface SessionTarget {
  sessionsDir: string;
  cwd: string;
  /** A session id or unique prefix. */
  resume?: string;
  /**
   * Reopen the session with the newest activity whose `session/start` cwd is in the project
   * `cwd` is in (its root or below), or outside a project is `cwd` itself.
   */
  continueLatest?: boolean;
  /** The loaded config: its `projectRoot` counts as a project root for `continueLatest`. */
  loaded?: { projectRoot?: string };
  receipts?: Receipts;
}

/** Signing of new checkpoints, and what a log to resume must prove (session/receipt.ts). */
export interface Receipts {
  signer: CheckpointSigner;
  trust: ReceiptTrust;
}

/** An existing log to continue: its path and its verified events. */
export interface PriorSession {
  path: string;
  events: SessionEvent[];
  /** How far the read verified it, for the writer. */
  summary?: ReadSummary;
}

/** The log to resume, read and verified, or null for a new session. */
export async function locateSession(target: SessionTarget): Promise<PriorSession | null> {
  const path = target.resume
    ? findSession(target.sessionsDir, target.resume)
    : target.continueLatest
      ? newestIn(target.sessionsDir, resolve(target.cwd), target.loaded?.projectRoot)
      : null;
  if (path === null) return null;
  // Made before the read, so the index it consults is no newer than the log (ReceiptVerifier).
  const receipt = target.receipts ? new ReceiptVerifier(path, target.receipts.trust) : null;
  let read: { events: SessionEvent[]; summary: ReadSummary };
  try {
    read = readSession(path);
  } catch (error) {
    throw lockedInstead(path, error) ?? withRepairHint(error, path);
  }
  if (receipt) {
    try {
      for (const event of read.events) receipt.push(event);
      receipt.finish();
    } catch (error) {
      throw lockedInstead(path, error) ?? error;
    }
  }
  return { path, ...read };
}

/**
 * A log read while another process holds its writer lock may end before the checkpoint that
 * process has just recorded in the index (it syncs the log, then records): that is no damage,
 * and the resume would be refused for the lock anyway, so it is refused for the lock, with the
 * lock's one line. With no live writer, damage stays damage. `sessions verify` never says this.
 */
function lockedInstead(path: string, error: unknown): SessionLockedError | null {
  if (!(error instanceof SessionCorruptError)) return null;
  const owner = liveLockOwner(path);
  if (!owner) return null;
  return new SessionLockedError(sessionIdOfPath(path), owner.pid, owner.host, `${path}.lock`);
}

/**
 * A log damaged after valid lines is never resumed: the error names the first bad line and
 * `sessions repair`, which can cut the tail there (keeping the cut lines).
 */
function withRepairHint(error: unknown, path: string): unknown {
  if (!(error instanceof SessionCorruptError) || error.line < 2) return error;
  const hint = `the log is valid up to seq ${error.line - 2}; \`codewhale sessions repair ${sessionIdOfPath(path)}\` can cut the damaged tail, keeping the cut lines`;
  return new SessionCorruptError(error.file, error.line, `${error.reason}; ${hint}`);
}

function newestIn(sessionsDir: string, cwd: string, configRoot: string | undefined): string {
  const root = projectRootOf(cwd, configRoot);
  const belongs = (dir: string) =>
    isAbsolute(dir) && (root === undefined ? resolve(dir) === cwd : isWithin(resolve(dir), root));
  let newest: { path: string; at: number } | undefined;
  for (const path of listSessionFiles(sessionsDir)) {
    const summary = summarizeHead(path);
    if (summary.cwd === null || !belongs(summary.cwd)) continue;
    const at = Date.parse(summary.lastActivity ?? summary.started ?? "") || 0;
    if (newest === undefined || at > newest.at) newest = { path, at };
  }
  if (newest) return newest.path;
  const where = root === undefined ? cwd : `the project at ${root}`;
  throw new UsageError(`no session to continue for ${where} in ${sessionsDir}`);
}

/** The provider and model in effect at the end of a log (session/start, then session/model). */
export function modelInEffect(events: readonly SessionEvent[]): {
  provider: string;
  model: string;
} {
  let current = { provider: "", model: "" };
  for (const event of events) {
    if (event.type === "session/start" || event.type === "session/model") {
      current = { provider: event.provider, model: event.model };
    }
  }
  return current;
}

/**
 * Reopens a log for appending. Returns the writer and the log's events before it reopened;
 * what the writer appends while reopening (a `session/recovered`) goes to `publish`.
 */
export function reopenSession(
  prior: PriorSession,
  publish: (event: SessionEvent) => void,
  signer?: CheckpointSigner,
): { writer: SessionWriter; history: SessionEvent[] } {
  const last = prior.events.at(-1);
  const verified = prior.summary && last ? { summary: prior.summary, lastType: last.type } : null;
  const { writer, summary } = SessionWriter.resume(prior.path, {
    publish,
    ...(signer ? { signer } : {}),
    ...(verified ? { verified } : {}),
  });
  const lastRead = prior.events.at(-1)?.seq ?? -1;
  const lastVerified = summary.lastSeq;
  // Another process appended between our read and taking the lock: read again.
  const history =
    lastVerified === lastRead
      ? prior.events
      : readSession(prior.path, { untilSeq: lastVerified }).events;
  return { writer, history };
}

/**
 * The events that close what a crash left open, in order: a step that was streaming gets
 * `step/failed` with what had arrived (a summarising request `compaction/failed`); tool calls of the last assistant message that were never
 * recorded get a refused `tool/call`; trailing tool calls get interrupted results; and an
 * unfinished turn gets its `turn/end`.
 */
export function repairEvents(history: readonly SessionEvent[]): EventInput[] {
  const open = new Map<string, true>();
  let openTurn: number | null = null;
  let streaming: OpenStep | null = null;
  let unrecorded: UnrecordedCall[] = [];
  let compacting: OpenStep | null = null;
  for (const event of history) {
    // Derive already closes calls left open before a later message; only trailing ones remain.
    if (event.type === "user/message" || event.type === "assistant/message") open.clear();
    else if (event.type === "tool/call") open.set(event.call_id, true);
    else if (event.type === "tool/result") open.delete(event.call_id);
    else if (event.type === "turn/start") openTurn = event.turn;
    else if (event.type === "turn/end") openTurn = null;
    streaming = trackStep(streaming, event);
    compacting = trackCompaction(compacting, event);
    unrecorded = trackUnrecorded(unrecorded, event);
  }
  const out: EventInput[] = [];
  if (streaming) out.push(failedStep(streaming));
  if (compacting) out.push(failedCompaction(compacting));
  for (const call of unrecorded) {
    out.push(refusedCall(call), interruptedResult(call.call_id, NEVER_RUN));
    open.delete(call.call_id);
  }
  for (const call_id of open.keys()) out.push(interruptedResult(call_id, INTERRUPTED_RESULT));
  if (openTurn !== null) {
    const error = "the session ended while this turn ran";
    out.push({ type: "turn/end", turn: openTurn, reason: "error", error });
  }
  return out;
}

type BlockKind = "text" | "thinking" | "tool_input";

interface OpenStep {
  turn: number;
  step: number;
  blocks: Map<number, { kind: BlockKind; text: string }>;
}

/** The step whose request was streaming at this point of the log, if any. */
function trackStep(current: OpenStep | null, event: SessionEvent): OpenStep | null {
  if (event.type === "step/start") return { turn: event.turn, step: event.step, blocks: new Map() };
  if (event.type === "assistant/message" || event.type === "step/failed") return null;
  if (event.type === "assistant/chunk" && current) addChunk(current, event);
  return current;
}

/** Adds a streamed chunk to the open request's blocks. */
function addChunk(open: OpenStep, chunk: { block: number; kind: BlockKind; delta: string }): void {
  const block = open.blocks.get(chunk.block);
  if (block) block.text += chunk.delta;
  else open.blocks.set(chunk.block, { kind: chunk.kind, text: chunk.delta });
}

/** The summarising request streaming at this point of the log, if any (turn and step unused). */
function trackCompaction(current: OpenStep | null, event: SessionEvent): OpenStep | null {
  if (event.type === "compaction/start") return { turn: 0, step: 0, blocks: new Map() };
  if (event.type === "context/compaction" || event.type === "compaction/failed") return null;
  if (event.type === "compaction/chunk" && current) addChunk(current, event);
  return current;
}

function failedCompaction(open: OpenStep): EventInput {
  return {
    type: "compaction/failed",
    error: "the session ended while the summary streamed",
    status: null,
    request_id: null,
    partial: [...open.blocks].map(([block, { kind, text }]) => ({ block, kind, text })),
    will_retry: false,
  };
}

interface UnrecordedCall {
  turn: number;
  step: number;
  call_id: string;
  name: string;
  arguments: string;
}

/**
 * Tool calls of the newest assistant message that have no `tool/call` yet: the process died
 * between the message and recording its calls. Without a repair the provider would reject
 * the history (a tool call with no result).
 */
function trackUnrecorded(current: UnrecordedCall[], event: SessionEvent): UnrecordedCall[] {
  if (event.type === "assistant/message") {
    return readNative(event.content).flatMap((block) =>
      block.kind === "tool_call"
        ? [
            {
              turn: event.turn,
              step: event.step,
              call_id: block.id,
              name: block.name,
              arguments: block.arguments,
            },
          ]
        : [],
    );
  }
  if (event.type === "tool/call") return current.filter((call) => call.call_id !== event.call_id);
  if (event.type === "user/message") return [];
  return current;
}

const NEVER_RUN =
  "This tool call was never run: the session ended before it was recorded. Run it again if it is still needed.";

function refusedCall(call: UnrecordedCall): EventInput {
  let args: JsonValue;
  try {
    args = JSON.parse(call.arguments) as JsonValue;
  } catch {
    args = call.arguments;
  }
  const reason = "the session ended before this call was recorded; it was not run";
  return {
    type: "tool/call",
    turn: call.turn,
    step: call.step,
    call_id: call.call_id,
    name: call.name,
    arguments: args,
    decision: { outcome: "deny", by: "default", reason },
  };
}

function failedStep(open: OpenStep): EventInput {
  return {
    type: "step/failed",
    turn: open.turn,
    step: open.step,
    error: "the session ended while this step streamed",
    status: null,
    request_id: null,
    partial: [...open.blocks].map(([block, { kind, text }]) => ({ block, kind, text })),
    will_retry: false,
  };
}
