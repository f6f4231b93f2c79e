// A hit's snippet, read from the log itself (the index stores no text): the event's line at
// the offset the index remembered, its searchable text as documents.ts makes it, and the window
// of about 24 words that holds the most of the query's terms, with each match marked by
// [start, end) offsets. Words are split and folded like the index's tokenizer (unicode61,
// diacritics removed, any case). Called by query.ts for each hit.
import { closeSync, openSync, readSync } from "node:fs";
import type { SessionEvent } from "../session/events.ts";
import { documentOf } from "./documents.ts";

export interface Snippet {
  snippet: string;
  highlights: [number, number][];
}

/** Where a hit's text is: its log, the byte offset of its line, the tool of a result. */
interface HitPlace {
  path: string;
  lineOffset: number;
  tool: string;
}

const WINDOW = 24;
/** A line longer than this is not read for a snippet (the index caps text far below it). */
const LINE_CAP = 16 * 1024 * 1024;
const TOKEN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/** The query's terms: each word, or each "quoted phrase", as its folded words. */
export function queryTerms(query: string): string[][] {
  const terms: string[][] = [];
  for (const match of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    const words = tokens(match[1] ?? match[2] ?? "").map((token) => token.folded);
    if (words.length > 0) terms.push(words);
  }
  return terms;
}

/**
 * The snippet of a hit, or null when the event does not hold every multi-word phrase of the
 * query in order (the index keeps no positions: phrases are checked here). The thinking is
 * looked at only when `thinking`, and shown when the text has no match.
 */
export function snippetAt(place: HitPlace, terms: string[][], thinking: boolean): Snippet | null {
  const event = eventAt(place.path, place.lineOffset);
  const doc = event ? documentOf(event, () => place.tool) : null;
  if (!doc) return null;
  const columns = (thinking ? [doc.text, doc.thinking] : [doc.text]).map((text) => ({
    text,
    words: tokens(text),
  }));
  const phrases = terms.filter((term) => term.length > 1);
  const holds = (term: string[]) => columns.some((c) => occurrences(c.words, [term]).length > 0);
  if (!phrases.every(holds)) return null;
  const shown = columns.find((c) => occurrences(c.words, terms).length > 0) ?? columns[0]!;
  return snippetOf(shown.text, shown.words, terms);
}

interface Token {
  start: number;
  end: number;
  folded: string;
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const word = match[0];
    const plain = !/[\u0080-\uffff]/.test(word);
    const folded = (plain ? word : word.normalize("NFD").replace(/\p{M}/gu, "")).toLowerCase();
    if (folded !== "") out.push({ start: match.index, end: match.index + match[0].length, folded });
  }
  return out;
}

/** The window of `text` holding the most distinct terms, with their occurrences marked. */
function snippetOf(text: string, words: Token[], terms: string[][]): Snippet {
  const found = occurrences(words, terms);
  const start = windowStart(found, words.length);
  const end = Math.min(words.length, start + WINDOW);
  let out = start > 0 ? "…" : "";
  const highlights: [number, number][] = [];
  let open = -1;
  for (let k = start; k < end; k++) {
    if (k > start) out += gapText(text.slice(words[k - 1]!.end, words[k]!.start));
    const occurrence = found.find((o) => o.first === k && o.last < end);
    if (occurrence && open < 0) open = out.length;
    out += text.slice(words[k]!.start, words[k]!.end);
    const closing = found.find((o) => o.last === k && o.first >= start);
    if (closing && open >= 0) {
      highlights.push([open, out.length]);
      open = -1;
    }
  }
  if (end < words.length) out += "…";
  return { snippet: out, highlights };
}

/** The text between two words, on one line: runs of white space become one space. */
function gapText(gap: string): string {
  return gap.replace(/\s+/g, " ");
}

interface Occurrence {
  term: number;
  first: number;
  last: number;
}

/** Every place a term's words stand in order, not overlapping one another. */
function occurrences(words: Token[], terms: string[][]): Occurrence[] {
  const found: Occurrence[] = [];
  let after = -1;
  for (let k = 0; k < words.length; k++) {
    if (k <= after) continue;
    const term = terms.findIndex((term) => term.every((w, i) => words[k + i]?.folded === w));
    if (term < 0) continue;
    const last = k + terms[term]!.length - 1;
    found.push({ term, first: k, last });
    after = last;
  }
  return found;
}

/** The first word of the window holding the most distinct terms (the earliest such). */
function windowStart(found: Occurrence[], length: number): number {
  let best = -1;
  let bestCount = 0;
  for (const occurrence of found) {
    const inWindow = found.filter(
      (o) => o.first >= occurrence.first && o.last < occurrence.first + WINDOW - 4,
    );
    const count = new Set(inWindow.map((o) => o.term)).size;
    if (count > bestCount) {
      best = occurrence.first;
      bestCount = count;
    }
  }
  if (best < 0) return 0;
  return Math.max(0, Math.min(best - 4, length - WINDOW));
}

/** The event whose line starts at `offset`, or null when it cannot be read as one. */
function eventAt(path: string, offset: number): SessionEvent | null {
  const line = lineAt(path, offset);
  if (line === null) return null;
  try {
    const event = JSON.parse(line) as unknown;
    return typeof event === "object" && event !== null ? (event as SessionEvent) : null;
  } catch {
    return null;
  }
}

function lineAt(path: string, offset: number): string | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    let buffer = Buffer.allocUnsafe(64 * 1024);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, offset + length);
      const newline = buffer.indexOf(10, length);
      length += read;
      if (newline >= 0 && newline < length) return buffer.toString("utf8", 0, newline);
      if (read === 0) return buffer.toString("utf8", 0, length);
      if (length === buffer.length) {
        if (length >= LINE_CAP) return null;
        buffer = Buffer.concat([buffer, Buffer.allocUnsafe(length)]);
      }
    }
  } finally {
    closeSync(fd);
  }
}
