// A cheap summary of one session log for listings: id and short id, start, last activity, cwd,
// model, first prompt, title, event count, size, turns and cost. It reads the head of the file, takes
// the count and the last activity from the last line (counting lines only when the tail is no
// help), and the turns and cost from a byte scan (summary-scan.ts), never a replay; `sessions
// verify` is the full check. A log whose head cannot be read is summarised as damaged.
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { sessionIdOfPath, shortSessionId } from "./paths.ts";
import { scanLog } from "./summary-scan.ts";

export interface SessionSummary {
  id: string;
  /** The id's random tail, which `sessions show`, `exec --resume` and the rest accept. */
  shortId: string;
  path: string;
  started: string | null;
  /** The time of the last complete event. */
  lastActivity: string | null;
  cwd: string | null;
  model: string | null;
  firstPrompt: string | null;
  /** The newest `session/title` (`/title`, an editor's name); set by `withFigures`. */
  title?: string | null;
  events: number;
  bytes: number;
  /** `turn/start` events. */
  turns: number;
  /** Tokens of the completed requests: uncached input, cache reads and writes, and output. */
  tokens: number;
  /** Sum of the known request costs in USD; null while none had a known price. */
  cost: number | null;
  /** Set when the head of the log could not be parsed. */
  damaged?: string;
}

const HEAD_BYTES = 256 * 1024;
const TAIL_BYTES = 64 * 1024;

export function summarizeSession(path: string): SessionSummary {
  return withFigures(summarizeHead(path));
}

/** The summary without the byte scan: turns and tokens 0, cost null (for filtering first). */
export function summarizeHead(path: string): SessionSummary {
  const bytes = statSync(path).size;
  const id = sessionIdOfPath(path);
  const headText = readHead(path);
  // A log no longer than the head read was read whole: its tail is in hand.
  const tail = readTail(path, bytes, bytes <= HEAD_BYTES ? headText : undefined);
  const summary: SessionSummary = {
    id,
    shortId: shortSessionId(id),
    path,
    started: null,
    lastActivity: tail.lastTs,
    cwd: null,
    model: null,
    firstPrompt: null,
    events: tail.events,
    bytes,
    turns: 0,
    tokens: 0,
    cost: null,
  };
  for (
    let from = 0, end = headText.indexOf("\n");
    end >= 0;
    from = end + 1, end = headText.indexOf("\n", from)
  ) {
    if (!applyHeadLine(summary, headText.slice(from, end))) break;
    if (summary.firstPrompt !== null) break;
  }
  return summary;
}

/** Adds the turns, tokens, cost and title of the log (a byte scan, summary-scan.ts). */
export function withFigures(summary: SessionSummary): SessionSummary {
  const { figures, title } = scanLog(summary.path);
  const { input, cache_read, cache_write, output } = figures.usage;
  const tokens = input + cache_read + cache_write + output;
  return { ...summary, turns: figures.turns, tokens, cost: figures.cost, title };
}

/** Folds one head line into the summary; false stops the scan. */
function applyHeadLine(summary: SessionSummary, line: string): boolean {
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(line) as Record<string, unknown>;
  } catch {
    summary.damaged = "unreadable line in the head of the log";
    return false;
  }
  if (event.type === "session/start") {
    summary.started = typeof event.ts === "string" ? event.ts : null;
    summary.cwd = typeof event.cwd === "string" ? event.cwd : null;
    const provider = typeof event.provider === "string" ? event.provider : "";
    summary.model = typeof event.model === "string" ? `${provider}/${event.model}` : null;
  } else if (event.type === "user/message" && typeof event.text === "string") {
    summary.firstPrompt = event.text;
  }
  return true;
}

function readHead(path: string): string {
  return readAt(path, 0, HEAD_BYTES);
}

/** One scratch buffer for every head and tail read: a listing reads hundreds of logs. */
let scratch: Buffer | null = null;

function readAt(path: string, position: number, length: number): string {
  const fd = openSync(path, "r");
  try {
    scratch ??= Buffer.allocUnsafe(Math.max(HEAD_BYTES, TAIL_BYTES));
    const buffer = scratch;
    const read = readSync(fd, buffer, 0, Math.min(length, buffer.length), position);
    return buffer.toString("utf8", 0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Events in the log: the last complete line's seq plus one (seq is dense from 0), and its time,
 * read from the tail; lines counted (and no time) when the last line is longer than the tail
 * or is not an event.
 */
function readTail(
  path: string,
  bytes: number,
  whole?: string,
): { events: number; lastTs: string | null } {
  const start = whole === undefined ? Math.max(0, bytes - TAIL_BYTES) : 0;
  const tail = whole ?? readAt(path, start, bytes - start);
  const end = tail.lastIndexOf("\n");
  const from = tail.lastIndexOf("\n", end - 1) + 1;
  const counted = () => ({ events: countLines(path), lastTs: null });
  if (end < 0 || (from === 0 && start > 0)) return counted();
  try {
    const { seq, ts } = JSON.parse(tail.slice(from, end)) as { seq?: unknown; ts?: unknown };
    if (!Number.isSafeInteger(seq)) return counted();
    return { events: (seq as number) + 1, lastTs: typeof ts === "string" ? ts : null };
  } catch {
    return counted();
  }
}

/** Complete lines (newline-terminated) in the file, counted in constant memory. */
function countLines(path: string): number {
  const fd = openSync(path, "r");
  const buffer = Buffer.alloc(1 << 20);
  let lines = 0;
  try {
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      for (let at = buffer.indexOf(10, 0); at >= 0 && at < read; at = buffer.indexOf(10, at + 1)) {
        lines++;
      }
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}
