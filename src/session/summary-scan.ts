// The figures a listing shows (turns, cost, tokens) and the session's title without replaying
// a log: one pass over its bytes in 1 MiB reads, parsing only the lines whose text holds
// `"type":"turn/start"`, `"type":"step/end"` or `"type":"session/title"` (a byte search; the
// bulk, streamed chunks, is never parsed), each checked for the fields it counts and folded
// by session/figures.ts. Called by summary.ts.
import { closeSync, openSync, readSync } from "node:fs";
import type { EventType, SessionEvent } from "./events.ts";
import { type Figures, FiguresFold } from "./figures.ts";

const READ_BYTES = 1 << 20;
const NEWLINE = 10;
/** The canonical form writes keys sorted, without spaces: these bytes start a counted line's type. */
const NEEDLES: ReadonlyArray<[Buffer, EventType]> = [
  [Buffer.from('"type":"turn/start"'), "turn/start"],
  [Buffer.from('"type":"step/end"'), "step/end"],
  [Buffer.from('"type":"session/title"'), "session/title"],
];

/**
 * The figures of the counted lines of the log at `path` (turns, steps, usage, cost; the
 * durations stay 0). A line that does not parse or whose counted fields are not counts is
 * skipped, so a damaged or
 * hostile log lists with what it holds; the text may also appear inside another event's
 * arguments, which the parse tells apart (its top-level type differs).
 */
/** Reused by every scan: a listing scans hundreds of logs, one after another. */
let readBuffer: Buffer | null = null;

/** The figures and the newest `session/title` (null when the session was never named). */
export function scanLog(path: string): { figures: Figures; title: string | null } {
  const fold = new FiguresFold();
  const named = { title: null as string | null };
  const fd = openSync(path, "r");
  try {
    let carry = Buffer.alloc(0);
    readBuffer ??= Buffer.allocUnsafe(READ_BYTES);
    const buffer = readBuffer;
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      const chunk =
        carry.length === 0
          ? buffer.subarray(0, read)
          : Buffer.concat([carry, buffer.subarray(0, read)]);
      const end = chunk.lastIndexOf(NEWLINE);
      if (end < 0) {
        carry = Buffer.from(chunk);
        continue;
      }
      foldLines(chunk.subarray(0, end + 1), fold, named);
      carry = Buffer.from(chunk.subarray(end + 1));
    }
  } finally {
    closeSync(fd);
  }
  return { figures: fold.figures, title: named.title };
}

/** Folds the counted lines of `lines` (complete lines only), in order of their position. */
function foldLines(lines: Buffer, fold: FiguresFold, named: { title: string | null }): void {
  const hits: Array<{ start: number; type: EventType }> = [];
  for (const [needle, type] of NEEDLES) {
    let lastStart = -1;
    for (let at = lines.indexOf(needle); at >= 0; at = lines.indexOf(needle, at + 1)) {
      const start = lines.lastIndexOf(NEWLINE, at) + 1;
      if (start !== lastStart) hits.push({ start, type });
      lastStart = start;
    }
  }
  hits.sort((a, b) => a.start - b.start);
  for (const { start, type } of hits) {
    const text = lines.toString("utf8", start, lines.indexOf(NEWLINE, start));
    if (type === "session/title") {
      named.title = titleOf(text) ?? named.title;
      continue;
    }
    const event = parseLine(text, type);
    if (event) fold.observe(event);
  }
}

/** The title of a `session/title` line, or undefined when it is not one. */
function titleOf(text: string): string | undefined {
  try {
    const event = JSON.parse(text) as Record<string, unknown> | null;
    if (event?.type === "session/title" && typeof event.title === "string") return event.title;
  } catch {
    // Not a line of ours: the needle was inside another event's text.
  }
  return undefined;
}

function parseLine(text: string, type: EventType): SessionEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const event = value as Record<string, unknown> | null;
  if (event?.type !== type || !isCount(event.turn)) return undefined;
  if (type === "turn/start") return event as unknown as SessionEvent;
  // A step/end: only what the fold reads is checked (a full schema check per line would be
  // most of a listing's time); anything else makes the line not count.
  const usage = event.usage as Record<string, unknown> | null;
  const usageOk =
    typeof usage === "object" && usage !== null && USAGE_KEYS.every((key) => isCount(usage[key]));
  const costOk =
    event.cost === null ||
    (typeof event.cost === "number" && Number.isFinite(event.cost) && event.cost >= 0);
  return usageOk && costOk && isCount(event.step) ? (event as unknown as SessionEvent) : undefined;
}

const USAGE_KEYS = ["input", "output", "cache_read", "cache_write", "reasoning"] as const;

function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
