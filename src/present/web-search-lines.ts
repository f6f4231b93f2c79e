// How the web searches and cited sources of an `assistant/message` read as plain lines: one
// line per search (its query and how many results), then each result's title and URL, and the
// sources the answer cites. Shared by exec's text output, the terminal transcript and the
// Markdown and HTML exports, so every surface shows the same sources. Pure over the content.
import type { JsonValue } from "../session/events.ts";
import {
  citedSources,
  type ServerSearch,
  serverSearches,
  type WebSource,
} from "../session/web-search.ts";

/** One search: `web_search "query" · 10 results` (or the page opened, or the error). */
function searchHeadline(search: ServerSearch): string {
  const label =
    search.action === "search"
      ? `web_search ${JSON.stringify(search.query)}`
      : `web_search ${search.action} ${search.query}`;
  if (search.error !== undefined) return `${label} · failed: ${search.error}`;
  const count = search.sources.length;
  return count === 0 ? label : `${label} · ${count} result${count === 1 ? "" : "s"}`;
}

/** A source as one line: `Title — https://…`, or the URL alone. */
function sourceLine(source: WebSource): string {
  return source.title ? `${source.title} — ${source.url}` : source.url;
}

interface WebSearchView {
  searches: { headline: string; sources: string[] }[];
  /** The sources the answer's text cites, numbered in order of first citation. */
  cited: string[];
}

/** The searches and citations of one message; null when it has neither. */
export function webSearchView(content: readonly JsonValue[]): WebSearchView | null {
  const searches = serverSearches(content).map((search) => ({
    headline: searchHeadline(search),
    sources: search.sources.map(sourceLine),
  }));
  const cited = citedSources(content).map(sourceLine);
  return searches.length === 0 && cited.length === 0 ? null : { searches, cited };
}

/** The view as indented text lines (exec's stderr, the terminal, Markdown). */
export function webSearchLines(view: WebSearchView): string[] {
  const lines: string[] = [];
  for (const search of view.searches) {
    lines.push(search.headline, ...search.sources.map((source) => `  ${source}`));
  }
  if (view.cited.length > 0) {
    lines.push("Sources cited:", ...view.cited.map((source, i) => `  [${i + 1}] ${source}`));
  }
  return lines;
}
