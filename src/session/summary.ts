// A cheap summary of one session log for listings: id, start, cwd, model, first prompt, event
// count and size. It reads the head of the file and takes the count from the last line's seq
// (counting lines only when the tail is no help); `sessions verify` is the full check. A log
// whose head cannot be read is summarised as damaged, never thrown.
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { sessionIdOfPath } from "./paths.ts";

export interface SessionSummary {
  id: string;
  path: string;
  started: string | null;
  cwd: string | null;
  model: string | null;
  firstPrompt: string | null;
  events: number;
  bytes: number;
  /** Set when the head of the log could not be parsed. */
  damaged?: string;
}

const HEAD_BYTES = 256 * 1024;
const TAIL_BYTES = 64 * 1024;

export function summarizeSession(path: string): SessionSummary {
  const bytes = statSync(path).size;
  const summary: SessionSummary = {
    id: sessionIdOfPath(path),
    path,
    started: null,
    cwd: null,
    model: null,
    firstPrompt: null,
    events: countEvents(path, bytes),
    bytes,
  };
  const head = readHead(path).split("\n");
  for (const line of head.slice(0, -1)) {
    if (!applyHeadLine(summary, line)) break;
    if (summary.firstPrompt !== null) break;
  }
  return summary;
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

function readAt(path: string, position: number, length: number): string {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, position);
    return buffer.toString("utf8", 0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Events in the log: the last complete line's seq plus one (seq is dense from 0), read from
 * the tail; lines counted when the last line is longer than the tail or is not an event.
 */
function countEvents(path: string, bytes: number): number {
  const start = Math.max(0, bytes - TAIL_BYTES);
  const tail = readAt(path, start, bytes - start);
  const end = tail.lastIndexOf("\n");
  const from = tail.lastIndexOf("\n", end - 1) + 1;
  if (end < 0 || (from === 0 && start > 0)) return countLines(path);
  try {
    const seq = (JSON.parse(tail.slice(from, end)) as { seq?: unknown }).seq;
    return Number.isSafeInteger(seq) ? (seq as number) + 1 : countLines(path);
  } catch {
    return countLines(path);
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
