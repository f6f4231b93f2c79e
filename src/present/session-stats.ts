// The four figures a compression claim must report separately, for one stored session, kept
// apart on purpose: bytes per view (what a person's terminal and an export receive), local
// storage bytes by event type, the request-side replay tokens of the last request (counted
// with a tokenizer) beside what the provider reported, and the provider's cache figures per
// request with the hit ratio; plus cost per turn and in total, and the web fetches and searches. Pure over the events and their
// line sizes; the counts come from session/figures.ts's fold. Called by cli/sessions-stats.ts.
import { countTokens, messageText, TOKENIZER } from "../providers/token-count.ts";
import { deriveMessages } from "../session/derive.ts";
import type { SessionEvent, Usage } from "../session/events.ts";
import { type CompactionFigures, FiguresFold } from "../session/figures.ts";
import { searchCount } from "../session/web-search.ts";

export interface SessionStats {
  session_id: string;
  /** Bytes each view of the log gives, as it exists today. */
  views: { terminal_bytes: number; canonical_bytes: number };
  /** What the log takes on disk, by event type, largest first. */
  storage: { bytes: number; by_type: Array<{ type: string; events: number; bytes: number }> };
  replay: ReplayTokens;
  cache: { steps: CacheStep[]; total: CacheFigures };
  cost: {
    turns: Array<{ turn: number; steps: number; cost: number | null }>;
    total: number | null;
  };
  /** Each compaction: the history's estimated tokens before and after, and its cost. */
  compactions: CompactionFigures[];
  /**
   * The `web_fetch` calls: run (allowed), of those failed (an error result), and refused; the
   * web searches: the provider's own (from its blocks in `assistant/message`) and the backend
   * tool's `web_search` calls, run and refused.
   */
  web: WebCounts;
}

interface WebCounts {
  fetches: number;
  failed: number;
  refused: number;
  searches: { provider: number; backend: number; refused: number };
}

/** The history the last completed request carried, re-counted, beside the provider's count. */
export interface ReplayTokens {
  /** The last completed request; null when the session has none. */
  step: { turn: number; step: number } | null;
  tokenizer: string;
  messages: number;
  /** Tokens of the replayed messages' text, arguments and results (no system prompt, no tools). */
  history_tokens: number;
  /** Input tokens the provider reported for that request: uncached, cache read and write. */
  provider_input_tokens: number | null;
}

export interface CacheFigures {
  uncached: number;
  cache_read: number;
  cache_write: number;
  /** cache_read over all input tokens; null with no input. */
  hit_ratio: number | null;
}

export interface CacheStep extends CacheFigures {
  turn: number;
  step: number;
}

export interface StatsInput {
  events: readonly SessionEvent[];
  /** The byte length of each event's line (newline included), by index. */
  lineBytes: readonly number[];
  terminalBytes: number;
  canonicalBytes: number;
}

export function sessionStats(input: StatsInput): SessionStats {
  const fold = new FiguresFold({ detail: true });
  for (const event of input.events) fold.observe(event);
  const { steps, turns, compactions } = fold.detail!;
  const start = input.events[0];
  return {
    session_id: start?.type === "session/start" ? start.session_id : "",
    views: { terminal_bytes: input.terminalBytes, canonical_bytes: input.canonicalBytes },
    storage: storageByType(input.events, input.lineBytes),
    replay: replayTokens(input.events, steps.at(-1)),
    cache: {
      steps: steps.map((s) => ({ turn: s.turn, step: s.step, ...cacheOf(s.usage) })),
      total: cacheOf(fold.figures.usage),
    },
    cost: {
      turns: turns.map((t) => ({ turn: t.turn, steps: t.steps, cost: t.cost })),
      total: fold.figures.cost,
    },
    compactions,
    web: webCounts(input.events),
  };
}

/**
 * Counts the `web_fetch` calls from their `tool/call` decisions and `tool/result` errors, and
 * the searches: the provider's from its messages (searchCount), the backend's from its calls.
 */
function webCounts(events: readonly SessionEvent[]): WebCounts {
  const ran = new Set<string>();
  const searches = { provider: 0, backend: 0, refused: 0 };
  const counts = { fetches: 0, failed: 0, refused: 0, searches };
  for (const event of events) {
    if (event.type === "assistant/message") searches.provider += searchCount(event.content);
    else if (event.type === "tool/call" && event.name === "web_search") {
      if (event.decision.outcome === "allow") searches.backend++;
      else searches.refused++;
    } else if (event.type === "tool/call" && event.name === "web_fetch") {
      if (event.decision.outcome === "allow") {
        counts.fetches++;
        ran.add(event.call_id);
      } else counts.refused++;
    } else if (event.type === "tool/result" && event.is_error && ran.has(event.call_id)) {
      counts.failed++;
    }
  }
  return counts;
}

function storageByType(events: readonly SessionEvent[], lineBytes: readonly number[]) {
  const byType = new Map<string, { type: string; events: number; bytes: number }>();
  let bytes = 0;
  events.forEach((event, index) => {
    const size = lineBytes[index] ?? 0;
    bytes += size;
    const row = byType.get(event.type) ?? { type: event.type, events: 0, bytes: 0 };
    row.events++;
    row.bytes += size;
    byType.set(event.type, row);
  });
  const by_type = [...byType.values()].sort(
    (a, b) => b.bytes - a.bytes || (a.type < b.type ? -1 : 1),
  );
  return { bytes, by_type };
}

function cacheOf(usage: Usage): CacheFigures {
  const all = usage.input + usage.cache_read + usage.cache_write;
  return {
    uncached: usage.input,
    cache_read: usage.cache_read,
    cache_write: usage.cache_write,
    hit_ratio: all === 0 ? null : usage.cache_read / all,
  };
}

/**
 * The history up to the last request's `step/start` (what that request replayed), counted;
 * the provider's figure also holds the system prompt and tool schemas, which the log does not.
 */
function replayTokens(
  events: readonly SessionEvent[],
  last: { turn: number; step: number; seq: number; usage: Usage } | undefined,
): ReplayTokens {
  const none = {
    step: null,
    tokenizer: TOKENIZER,
    messages: 0,
    history_tokens: 0,
    provider_input_tokens: null,
  };
  if (!last) return none;
  let startIndex = events.findIndex((e) => e.seq === last.seq);
  for (; startIndex >= 0; startIndex--) {
    const event = events[startIndex]!;
    if (event.type === "step/start" && event.turn === last.turn && event.step === last.step) break;
  }
  const history = deriveMessages(events.slice(0, Math.max(0, startIndex)));
  const history_tokens = history.reduce(
    (sum, message) => sum + countTokens(messageText(message)),
    0,
  );
  const { input, cache_read, cache_write } = last.usage;
  return {
    step: { turn: last.turn, step: last.step },
    tokenizer: TOKENIZER,
    messages: history.length,
    history_tokens,
    provider_input_tokens: input + cache_read + cache_write,
  };
}
