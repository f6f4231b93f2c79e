// The provider's web searches in an `assistant/message` as ACP updates: each search a completed
// (or failed) `tool_call` of kind `search`, titled with its query, its results as a Markdown
// list of links; the sources the answer cites as one closing agent message chunk. Live and
// replayed sessions give the same updates (from the event alone). Used by event-updates.ts.
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { webSearchView } from "../present/web-search-lines.ts";
import { terminalSafe, terminalSafeLine } from "../runner/index.ts";
import type { EventOf } from "../session/events.ts";
import { serverSearches, type WebSource } from "../session/web-search.ts";

export function webSearchUpdates(event: EventOf<"assistant/message">): SessionUpdate[] {
  const view = webSearchView(event.content);
  if (!view) return [];
  const updates: SessionUpdate[] = serverSearches(event.content).map((search, i) => {
    const shown = view.searches[i];
    const list = (shown?.sources ?? search.sources).map((source) => `- ${link(source)}`);
    return {
      sessionUpdate: "tool_call",
      toolCallId: search.id,
      title: terminalSafeLine(shown?.headline ?? "web_search"),
      kind: "search",
      status: search.error === undefined ? "completed" : "failed",
      rawInput: { query: search.query },
      content:
        list.length === 0
          ? []
          : [{ type: "content", content: { type: "text", text: terminalSafe(list.join("\n")) } }],
    };
  });
  if (view.cited.length > 0) {
    const cited = view.cited.map((source, i) => `${i + 1}. ${link(source)}`);
    const text = terminalSafe(`\n\nSources:\n${cited.join("\n")}`);
    updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
  }
  return updates;
}

/** A Markdown link for an http(s) URL without characters that would end it; else plain text. */
function link(source: WebSource): string {
  const title = (source.title ?? source.url).replace(/[[\]\n]/g, " ");
  return /^https?:\/\/[^\s()<>]+$/i.test(source.url)
    ? `[${title}](${source.url})`
    : `${title} ${source.url}`;
}
