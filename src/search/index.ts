// The search layer's entry: a session search index over one codewhale home's logs
// (docs/search.md). `openSearchIndex` loads the engine on first use; `sync` brings the index up
// to date with the logs before each search. Used by `codewhale sessions search|forget|reindex`,
// `codewhale doctor` and the session_search tool.
import type { Database } from "better-sqlite3";
import { indexBytes, indexDirOf, openIndexDb, removeIndexFiles } from "./index-db.ts";
import { clearSession, type SyncReport, syncIndex } from "./indexer.ts";
import { type SearchFilters, type SearchHit, searchIndex } from "./query.ts";

export { followSession } from "./follow.ts";
export type { SearchFilters, SearchHit } from "./query.ts";

interface SearchIndex {
  /** Indexes what the logs hold that the index does not (`only`: just these logs). */
  sync(only?: readonly string[]): SyncReport;
  search(query: string, filters?: SearchFilters): SearchHit[];
  /** Removes a session from the index and keeps it out of later updates. */
  forget(sessionId: string): void;
  /** Figures for `doctor`: sessions and entries indexed. */
  counts(): { sessions: number; entries: number };
  close(): void;
}

interface SearchIndexOptions {
  /** `$CODEWHALE_HOME`: the index lives in its `index/`. */
  home: string;
  sessionsDir: string;
}

export async function openSearchIndex(options: SearchIndexOptions): Promise<SearchIndex> {
  const db = await openIndexDb(options.home);
  return indexOver(db, options.sessionsDir);
}

/** Removes the index and builds it again from the logs; forgotten sessions stay forgotten. */
export async function rebuildSearchIndex(options: SearchIndexOptions): Promise<SyncReport> {
  const old = await openIndexDb(options.home);
  const forgotten = old.prepare("select session_id from forgotten").all() as {
    session_id: string;
  }[];
  old.close();
  removeIndexFiles(options.home);
  const index = await openSearchIndex(options);
  try {
    for (const row of forgotten) index.forget(row.session_id);
    return index.sync();
  } finally {
    index.close();
  }
}

function indexOver(db: Database, sessionsDir: string): SearchIndex {
  return {
    sync: (only) => syncIndex(db, sessionsDir, only),
    search: (query, filters = {}) => searchIndex(db, query, filters),
    forget(sessionId) {
      db.transaction(() => {
        clearSession(db, sessionId);
        db.prepare("insert or ignore into forgotten values (?)").run(sessionId);
      })();
    },
    counts() {
      const sessions = db.prepare("select count(*) as n from sessions").get() as { n: number };
      const entries = db.prepare("select count(*) as n from entries").get() as { n: number };
      return { sessions: sessions.n, entries: entries.n };
    },
    close: () => db.close(),
  };
}

/** Where the index of a home is and how big, for `doctor` (never opens the engine). */
export function indexState(home: string): { dir: string; bytes: number } {
  return { dir: indexDirOf(home), bytes: indexBytes(home) };
}
