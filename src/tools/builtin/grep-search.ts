// What both grep backends (ripgrep and the JS fallback) take and give, the limits they share
// (a cap on hits, lines cut at 500 chars) and the one formatter that turns hits into the text
// the model reads: `path:line:text` sorted by path then line (or paths alone), then a count line.
import { basename, relative } from "node:path";
import picomatch from "picomatch";
import type { RealTarget } from "./grep-verify.ts";
import type { ReadFilter } from "./read-gate.ts";
import { skippedNote } from "./read-gate.ts";
import { tokenCut } from "./text-file.ts";

export interface GrepQuery {
  pattern: string;
  ignoreCase: boolean;
  /**
   * A file filter (picomatch, relative to `target`; a pattern without `/` matches basenames).
   * Both backends apply it themselves: rg's own --glob would override .gitignore.
   */
  glob?: string;
  filesOnly: boolean;
  /** The file or directory to search, absolute. */
  target: string;
  /** The workspace root: .gitignore files apply from here, paths are shown relative to it. */
  root: string;
  /**
   * The read gate: every file the search would search (after the glob) passes it, so it counts
   * each covered file once, whatever the file holds; a covered file's hits never come back.
   */
  readable?: ReadFilter;
  /**
   * Where the target really is, as the path check found it: ripgrep's hits are checked against
   * the files opened there without following links (grep-verify.ts).
   */
  real?: RealTarget;
  signal?: AbortSignal;
}

export interface GrepMatch {
  /** Absolute. */
  path: string;
  line: number;
  /** Without its line break, already cut (cutGrepLine). */
  text: string;
}

export interface GrepHits {
  matches: GrepMatch[];
  /** Absolute paths of files with a match (files-only mode), else empty. */
  files: string[];
  /** Problems that did not stop the search (an unreadable file). */
  warnings: string[];
  /** More than GREP_MAX_RESULTS hits exist; the first GREP_MAX_RESULTS (walk order) are kept. */
  capped: boolean;
}

/** The result of a backend: hits, or the reason the search could not run (a bad regex). */
export type GrepOutcome = { ok: true; hits: GrepHits } | { ok: false; error: string };

export type GrepBackend = (query: GrepQuery) => Promise<GrepOutcome>;

/** Matches (or files, in files-only mode) kept; the search stops at the next one. */
export const GREP_MAX_RESULTS = 10_000;
export const GREP_MAX_LINE_CHARS = 500;
export const GREP_CUT_MARKER = `… [line cut at ${GREP_MAX_LINE_CHARS} chars]`;

export const GREP_CANCELLED: GrepOutcome = { ok: false, error: "the search was cancelled" };

export function emptyHits(): GrepHits {
  return { matches: [], files: [], warnings: [], capped: false };
}

/**
 * Keeps one hit (a match, or its file in files-only mode) unless the cap is reached; then marks
 * the hits capped. Returns whether the search should go on.
 */
export function addHit(hits: GrepHits, filesOnly: boolean, match: GrepMatch): boolean {
  const kept = filesOnly ? hits.files : hits.matches;
  if (kept.length >= GREP_MAX_RESULTS) {
    hits.capped = true;
    return false;
  }
  if (filesOnly) hits.files.push(match.path);
  else hits.matches.push(match);
  return true;
}

/** A matched line as shown: its first 500 chars, then a marker when there was more. */
export function cutGrepLine(text: string): string {
  if (text.length <= GREP_MAX_LINE_CHARS) return text;
  const keep = tokenCut(text, GREP_MAX_LINE_CHARS, text[GREP_MAX_LINE_CHARS]);
  return `${text.slice(0, keep)}${GREP_CUT_MARKER}`;
}

/** Whether a file (absolute) passes the query's glob; always true without one. */
export function globFilter(query: GrepQuery): (absolute: string) => boolean {
  if (!query.glob) return () => true;
  const matches = picomatch(query.glob, { basename: true, dot: true });
  return (absolute) => {
    // A file searched on its own is matched by its name.
    const rel = relative(query.target, absolute) || basename(absolute);
    return matches(rel.split("\\").join("/"));
  };
}

/**
 * The hits as the model reads them. Files the read gate left out (`skipped`) are counted on a
 * line of their own, after the hits and before the count line; they are never named.
 */
export function formatHits(
  hits: GrepHits,
  filesOnly: boolean,
  show: (absolute: string) => string,
  skipped = 0,
): string {
  const warnings = hits.warnings.map((warning) => `warning: ${warning}\n`).join("");
  const note = skipped > 0 ? `${skippedNote(skipped)}\n` : "";
  if (filesOnly) {
    const files = [...new Set(hits.files.map(show))].sort(compare);
    if (files.length === 0) return `${warnings}No files match.\n${note}`;
    return `${files.join("\n")}\n${warnings}${note}${filesCount(files.length, hits.capped)}\n`;
  }
  const matches = hits.matches
    .map((match) => ({ ...match, path: show(match.path) }))
    .sort((a, b) => compare(a.path, b.path) || a.line - b.line);
  if (matches.length === 0) return `${warnings}No matches.\n${note}`;
  const lines = matches.map((match) => `${match.path}:${match.line}:${match.text}`);
  const files = new Set(matches.map((match) => match.path)).size;
  const count = matchesCount(matches.length, files, hits.capped);
  return `${lines.join("\n")}\n${warnings}${note}${count}\n`;
}

/** "(3 matches in 2 files)", or, when capped, how many are shown and what to do. */
function matchesCount(count: number, files: number, capped: boolean): string {
  const inFiles = `${files} file${plural(files)}`;
  if (!capped) return `(${count} match${count === 1 ? "" : "es"} in ${inFiles})`;
  return `(more than ${count} matches; showing the first ${count}, from ${inFiles}: ${NARROW})`;
}

function filesCount(count: number, capped: boolean): string {
  if (!capped) return `(${count} file${plural(count)})`;
  return `(more than ${count} files; showing the first ${count}: ${NARROW})`;
}

const NARROW = "narrow the pattern, path or glob";

/** A line as both backends report it: without its line break. */
export function bareLine(text: string): string {
  return text.replace(/\r?\n$/, "").replace(/\r$/, "");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function plural(count: number): string {
  return count === 1 ? "" : "s";
}
