// The terminal's searches over past sessions, served by the engine (the terminal's bundle loads
// neither src/search nor better-sqlite3): `/resume` searches the sessions' content as you type
// once the index exists (opened and brought up to date when the picker opens), and `/search
// QUERY` lists the matches, building the index when there is none yet. Made by
// chat-sessions.ts.
import type { SelectItem } from "@mariozechner/pi-tui";
import { indexState, openSearchIndex, type SearchHit } from "../search/index.ts";
import { localTime } from "./sessions-list.ts";

type SearchIndex = Awaited<ReturnType<typeof openSearchIndex>>;

interface ChatSearchOptions {
  home: string;
  sessionsDir: string;
}

interface ChatSearch {
  open(): Promise<boolean>;
  sessions(query: string, pickable: () => SelectItem[]): SelectItem[];
  matches(query: string, exceptSession: string): Promise<SelectItem[]>;
}

/** The snippet with its matches in [brackets] (a picker line has no bold). */
function marked(hit: SearchHit): string {
  let out = "";
  let at = 0;
  for (const [start, end] of hit.highlights) {
    out += `${hit.snippet.slice(at, start)}[${hit.snippet.slice(start, end)}]`;
    at = end;
  }
  return out + hit.snippet.slice(at);
}

/** A match as a picker line: its session and time, then what it was and its snippet. */
function matchText(hit: SearchHit): { label: string; description: string } {
  const what = hit.tool ? `${hit.kind} ${hit.tool}` : hit.kind;
  const label = `${hit.sessionId.slice(0, 8)}  ${localTime(hit.ts)}`;
  return { label, description: `${what} · ${marked(hit)}` };
}

export function chatSearch(options: ChatSearchOptions): ChatSearch {
  let index: SearchIndex | undefined;
  const opened = async () => {
    index ??= await openSearchIndex(options);
    index.sync();
    return index;
  };
  return {
    async open() {
      if (indexState(options.home).bytes === 0) return false;
      await opened();
      return true;
    },
    sessions(query, pickable) {
      let hits: SearchHit[];
      try {
        hits = index?.search(query, { limit: 50 }) ?? [];
      } catch {
        return []; // a query of no words yet
      }
      const items = new Map(pickable().map((item) => [item.value, item]));
      const found = new Map<string, SelectItem>();
      for (const hit of hits) {
        const item = items.get(hit.sessionId);
        if (item && !found.has(hit.sessionId))
          found.set(hit.sessionId, { ...item, description: marked(hit) });
      }
      return [...found.values()];
    },
    async matches(query, exceptSession) {
      const hits = (await opened()).search(query, { limit: 30, exceptSession });
      return hits.map((hit) => ({ value: `${hit.sessionId} ${hit.seq}`, ...matchText(hit) }));
    },
  };
}
