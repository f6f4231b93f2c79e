// What both grep backends (ripgrep and the JS fallback) take and give, and the one formatter
// that turns hits into the text the model reads, so the two produce exactly the same shape:
// `path:line:text` sorted by path then line (or paths alone), then a count line.
import { basename, relative } from "node:path";
import picomatch from "picomatch";
import { cutLine } from "./text-file.ts";

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
  signal?: AbortSignal;
}

export interface GrepMatch {
  /** Absolute. */
  path: string;
  line: number;
  text: string;
}

export interface GrepHits {
  matches: GrepMatch[];
  /** Absolute paths of files with a match (files-only mode), else empty. */
  files: string[];
  /** Problems that did not stop the search (an unreadable file). */
  warnings: string[];
}

/** The result of a backend: hits, or the reason the search could not run (a bad regex). */
export type GrepOutcome = { ok: true; hits: GrepHits } | { ok: false; error: string };

export type GrepBackend = (query: GrepQuery) => Promise<GrepOutcome>;

export const GREP_MAX_LINE_CHARS = 500;

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

export function formatHits(
  hits: GrepHits,
  filesOnly: boolean,
  show: (absolute: string) => string,
): string {
  const warnings = hits.warnings.map((warning) => `warning: ${warning}\n`).join("");
  if (filesOnly) {
    const files = [...new Set(hits.files.map(show))].sort(compare);
    if (files.length === 0) return `${warnings}No files match.\n`;
    return `${files.join("\n")}\n${warnings}(${files.length} file${plural(files.length)})\n`;
  }
  const matches = hits.matches
    .map((match) => ({ ...match, path: show(match.path) }))
    .sort((a, b) => compare(a.path, b.path) || a.line - b.line);
  if (matches.length === 0) return `${warnings}No matches.\n`;
  const lines = matches.map(
    (match) => `${match.path}:${match.line}:${cutLine(match.text, GREP_MAX_LINE_CHARS)}`,
  );
  const files = new Set(matches.map((match) => match.path)).size;
  const count = `(${matches.length} match${matches.length === 1 ? "" : "es"} in ${files} file${plural(files)})`;
  return `${lines.join("\n")}\n${warnings}${count}\n`;
}

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
