// The session's web searches against `[web.search] max_per_session`: counted from every
// appended event (the provider's own searches in `assistant/message`, the backend tool's
// allowed `web_search` calls), and whether the next request offers the provider's search tool,
// for how many uses. Fed by compose-session.ts's journal; read by step.ts and the tool source.
import type { ToolKind } from "../permissions/index.ts";
import { evaluatePermission } from "../permissions/index.ts";
import type { SessionEvent } from "../session/events.ts";
import { searchCount } from "../session/web-search.ts";
import type { RunContext } from "./run-context.ts";

/** The tool name web_search has on every path: the provider's server tool and the backend's. */
export const WEB_SEARCH = "web_search";
/** Its permission kind: searching for information, read-only (docs/permissions.md). */
const WEB_SEARCH_KIND: ToolKind = "search";

export class WebSearchCount {
  searches = 0;
  /** Each allowed backend call's place among the session's searches (1 for the first). */
  private readonly numbers = new Map<string, number>();

  observe(event: SessionEvent): void {
    if (event.type === "assistant/message") this.searches += searchCount(event.content);
    else if (
      event.type === "tool/call" &&
      event.name === WEB_SEARCH &&
      event.decision.outcome === "allow"
    ) {
      this.searches++;
      this.numbers.set(event.call_id, this.searches);
    }
  }

  /** The backend call's place among the session's searches (the calls of one message are all
   * recorded before the first runs, so the running total would count the later ones too). */
  numberOf(callId: string): number {
    return this.numbers.get(callId) ?? this.searches;
  }
}

/** The searches left in this session (never below 0). */
export function searchesLeft(ctx: Pick<RunContext, "config" | "webSearches">): number {
  return Math.max(0, ctx.config.web.search.max_per_session - ctx.webSearches.searches);
}

/**
 * The most searches one request lets the provider make. The offer's `max_uses` stays at this
 * while more are left, so the tool list (the front of the provider's prompt cache) does not
 * change with every search; it falls only over the session's last few.
 */
const SEARCHES_PER_REQUEST = 8;

/**
 * The provider's own search tool for the next request: offered when the session offers web
 * search, the provider's wire format has a search tool, `[web.search] provider_tool` is on,
 * searches are left, and the permission rules let a web_search run without asking (the
 * provider runs it: there is no moment to ask).
 */
export function providerSearchOffer(ctx: RunContext): { maxUses: number } | undefined {
  if (!ctx.webSearchOffered || !providerHasSearch(ctx)) return undefined;
  const left = Math.min(searchesLeft(ctx), SEARCHES_PER_REQUEST);
  if (left === 0) return undefined;
  const call = {
    name: WEB_SEARCH,
    arguments: {},
    tool: { kind: WEB_SEARCH_KIND, readOnly: true },
  };
  const decision = evaluatePermission(call, ctx.guard.permissions, ctx.guard.context);
  return decision.outcome === "allow" ? { maxUses: left } : undefined;
}

/** True when the session's provider searches with a tool of its own (and it is not turned off). */
function providerHasSearch(ctx: Pick<RunContext, "config" | "provider">): boolean {
  const kind = ctx.provider.kind;
  return (
    ctx.config.web.search.provider_tool && (kind === "anthropic" || kind === "openai-responses")
  );
}
