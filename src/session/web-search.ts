// The web searches and cited sources inside an `assistant/message`, read from the provider's
// own blocks as the log keeps them verbatim: Anthropic's `server_tool_use` (web_search) with
// its `web_search_tool_result` and the `citations` on text blocks; a Responses
// `web_search_call` and the `url_citation` annotations on output text. Pure; read by the
// session cap (agent), `sessions stats`, and the surfaces that show searches with sources.
import type { JsonValue } from "./events.ts";

type JsonObject = { [key: string]: JsonValue };

export interface WebSource {
  url: string;
  title?: string;
}

/** One search the provider ran (or one page it opened, for a Responses call). */
export interface ServerSearch {
  /** The server tool's id: Anthropic's `srvtoolu_…`, a Responses `ws_…`. */
  id: string;
  /** `search`, or a Responses call's other actions (`open_page`, `find_in_page`). */
  action: string;
  /** The query; for another action, the page it opened. */
  query: string;
  /** The results (Anthropic) or the sources (Responses) the provider returned. */
  sources: WebSource[];
  /** An error code the provider returned instead of results. */
  error?: string;
}

/** The searches in a message's content, in order. */
export function serverSearches(content: readonly JsonValue[]): ServerSearch[] {
  const results = new Map<string, JsonObject>();
  for (const item of content) {
    if (isObject(item) && item.type === "web_search_tool_result")
      results.set(String(item.tool_use_id), item);
  }
  return content.flatMap((item): ServerSearch[] => {
    if (!isObject(item)) return [];
    if (item.type === "server_tool_use" && item.name === "web_search") {
      return [anthropicSearch(item, results.get(String(item.id)))];
    }
    if (item.type === "web_search_call") return [responsesSearch(item)];
    return [];
  });
}

/** How many of them count against the session's cap: the searches, not the pages opened. */
export function searchCount(content: readonly JsonValue[]): number {
  return serverSearches(content).filter((search) => search.action === "search").length;
}

/** The sources the message's text cites, each URL once, in order of first citation. */
export function citedSources(content: readonly JsonValue[]): WebSource[] {
  const seen = new Map<string, WebSource>();
  const add = (citation: JsonValue) => {
    if (!isObject(citation) || typeof citation.url !== "string" || seen.has(citation.url)) return;
    seen.set(citation.url, sourceOf(citation.url, citation.title));
  };
  for (const item of content) {
    if (!isObject(item)) continue;
    if (item.type === "text" && Array.isArray(item.citations)) item.citations.forEach(add);
    if (item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      if (!isObject(part) || !Array.isArray(part.annotations)) continue;
      for (const note of part.annotations)
        if (isObject(note) && note.type === "url_citation") add(note);
    }
  }
  return [...seen.values()];
}

function anthropicSearch(call: JsonObject, result: JsonObject | undefined): ServerSearch {
  const input = isObject(call.input) ? call.input : {};
  const search: ServerSearch = {
    id: String(call.id),
    action: "search",
    query: typeof input.query === "string" ? input.query : "",
    sources: [],
  };
  const found = result?.content;
  if (Array.isArray(found)) {
    search.sources = found.flatMap((r) =>
      isObject(r) && typeof r.url === "string" ? [sourceOf(r.url, r.title)] : [],
    );
  } else if (isObject(found) && typeof found.error_code === "string") {
    search.error = found.error_code;
  }
  return search;
}

function responsesSearch(call: JsonObject): ServerSearch {
  const action = isObject(call.action) ? call.action : {};
  const type = typeof action.type === "string" ? action.type : "search";
  const sources = Array.isArray(action.sources)
    ? action.sources.flatMap((s) =>
        isObject(s) && typeof s.url === "string" ? [sourceOf(s.url, s.title)] : [],
      )
    : [];
  const query =
    typeof action.query === "string"
      ? action.query
      : typeof action.url === "string"
        ? action.url
        : "";
  const search: ServerSearch = { id: String(call.id), action: type, query, sources };
  if (call.status === "failed") search.error = "failed";
  return search;
}

function sourceOf(url: string, title: JsonValue | undefined): WebSource {
  return typeof title === "string" && title !== "" ? { url, title } : { url };
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
