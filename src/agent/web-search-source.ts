// The backend `web_search` tool's source, added by compose-session.ts when `[web.search]
// searxng_url` is set: the tool (tools/builtin/web-search.ts) on the session's shared tool
// context, refusing past `max_per_session` as the session's count (web-searches.ts) says.
// Where the provider has its own search tool, step.ts leaves this one out of the request.
import type { Config } from "../config/index.ts";
import { createWebSearchTool } from "../tools/builtin/index.ts";
import type { ToolSource } from "../tools/source.ts";
import type { WebSearchCount } from "./web-searches.ts";

export function webSearchToolSource(
  settings: Config["web"]["search"] & { searxng_url: string },
  count: WebSearchCount,
): ToolSource {
  return {
    name: "web-search",
    open: async (context) => {
      const tool = createWebSearchTool(context.workspace, {
        searxngUrl: settings.searxng_url,
        maxPerSession: settings.max_per_session,
        searchNumber: (callId) => count.numberOf(callId),
      });
      return { tools: () => [tool], notices: [], dispose: async () => {} };
    },
  };
}
