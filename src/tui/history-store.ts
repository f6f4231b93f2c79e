// The prompt history across sessions: `$CODEWHALE_HOME/history.jsonl`, one JSON line per prompt
// the user submitted (`{"ts", "project", "text"}`), newest last, mode 0600, at most
// MAX_ENTRIES kept. Text is redacted before it is written (the runner's redactor, handed in by
// the CLI), so a pasted key never lands here in plain text. Read and appended by app.ts
// through history.ts; a damaged line is skipped, never fatal.
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

export interface HistoryEntry {
  ts: string;
  project: string;
  text: string;
}

/** Entries kept; the file is rewritten down to this many when it holds half as many again. */
export const MAX_ENTRIES = 1000;
/** A longer prompt (a large paste) is not kept in the history. */
export const MAX_ENTRY_CHARS = 10_000;
/** A history file larger than this is not read (someone else's file, or damage). */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

export function historyPath(home: string): string {
  return join(home, "history.jsonl");
}

/** Every readable entry, oldest first; [] when the file is missing, unreadable or too large. */
export function readHistory(file: string): HistoryEntry[] {
  let text: string;
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      if (fstatSync(fd).size > MAX_FILE_BYTES) return [];
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
  const entries: HistoryEntry[] = [];
  for (const line of text.split("\n")) {
    const entry = parseEntry(line);
    if (entry) entries.push(entry);
  }
  return entries;
}

function parseEntry(line: string): HistoryEntry | undefined {
  if (!line.trim()) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== "object" || value === null) return undefined;
    const { ts, project, text } = value as Record<string, unknown>;
    if (typeof text !== "string" || typeof project !== "string") return undefined;
    return { ts: typeof ts === "string" ? ts : "", project, text };
  } catch {
    return undefined;
  }
}

/**
 * Appends one entry (already redacted) with O_APPEND, so two sessions appending at once
 * interleave whole lines; never follows a symlink. Past 1.5 × MAX_ENTRIES lines the file is
 * rewritten (a temp file renamed over it) with the newest MAX_ENTRIES. Returns false when the
 * history could not be written (the prompt still goes to the session).
 */
export function appendHistory(file: string, entry: HistoryEntry): boolean {
  if (entry.text.length > MAX_ENTRY_CHARS) return false;
  try {
    const fd = openSync(
      file,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      // A file made by someone else's umask or an older version: this user's only.
      if ((fstatSync(fd).mode & 0o077) !== 0) chmodSync(file, 0o600);
      writeSync(fd, `${JSON.stringify(entry)}\n`);
    } finally {
      closeSync(fd);
    }
    compactIfLong(file);
    return true;
  } catch {
    return false;
  }
}

function compactIfLong(file: string): void {
  if (lineCount(file) <= MAX_ENTRIES * 1.5) return;
  const kept = readHistory(file).slice(-MAX_ENTRIES);
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    writeSync(fd, kept.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

/** The number of lines in the file, counted without parsing them. */
function lineCount(file: string): number {
  const bytes = readFileSync(file);
  let count = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) count++;
  return count;
}

/**
 * The texts in the order Up walks them backwards: other projects' prompts first, then this
 * project's, each oldest first, so the newest of this project is last (Up shows it first).
 * A text repeated keeps only its latest place.
 */
export function orderForProject(entries: readonly HistoryEntry[], project: string): string[] {
  const others = entries.filter((entry) => entry.project !== project).map((entry) => entry.text);
  const own = entries.filter((entry) => entry.project === project).map((entry) => entry.text);
  const seen = new Set<string>();
  const out: string[] = [];
  const all = [...others, ...own];
  for (let index = all.length - 1; index >= 0; index--) {
    const text = all[index]!;
    if (seen.has(text)) continue;
    seen.add(text);
    out.push(text);
  }
  return out.reverse();
}
