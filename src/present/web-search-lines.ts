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
export function sourceLine(source: WebSource): string {
  return source.title ? `${source.title} — ${source.url}` : source.url;
}

export interface WebSearchView {
  searches: { headline: string; sources: WebSource[] }[];
  /** The sources the answer's text cites, in order of first citation. */
  cited: WebSource[];
}

/** The searches and citations of one message; null when it has neither. */
export function webSearchView(content: readonly JsonValue[]): WebSearchView | null {
  const searches = serverSearches(content).map((search) => ({
    headline: searchHeadline(search),
    sources: search.sources,
  }));
  const cited = citedSources(content);
  return searches.length === 0 && cited.length === 0 ? null : { searches, cited };
}

/** Every string of the view through `redact` (an export's secret redaction). */
export function redactedView(view: WebSearchView, redact: (text: string) => string): WebSearchView {
  const source = (s: WebSource): WebSource =>
    s.title === undefined ? { url: redact(s.url) } : { url: redact(s.url), title: redact(s.title) };
  return {
    searches: view.searches.map((search) => ({
      headline: redact(search.headline),
      sources: search.sources.map(source),
    })),
    cited: view.cited.map(source),
  };
}

/** The view as indented text lines (exec's stderr, the terminal). */
export function webSearchLines(view: WebSearchView): string[] {
  const lines: string[] = [];
  for (const search of view.searches) {
    lines.push(search.headline, ...search.sources.map((source) => `  ${sourceLine(source)}`));
  }
  if (view.cited.length > 0) {
    const cited = view.cited.map((source, i) => `  [${i + 1}] ${sourceLine(source)}`);
    lines.push("Sources cited:", ...cited);
  }
  return lines;
}
