// Answers a search over the index: the user's words and "quoted phrases" become an FTS5 query
// (every term required, nothing of FTS5's own syntax reachable), filtered by project directory,
// dates, model, tool and file, ranked by BM25, each hit with a snippet (read from the log by
// snippets.ts) whose matches are marked by offsets. Thinking is searched only when asked.
// Used by `codewhale sessions search`, the terminal's /search and /resume, and the
// session_search tool.
import type { Database } from "better-sqlite3";
import { UsageError } from "../errors.ts";
import { queryTerms, type Snippet, snippetAt } from "./snippets.ts";

export interface SearchFilters {
  /** Sessions of this directory and below. */
  dir?: string;
  /** ISO-8601 lower bound (inclusive) on the event's time. */
  since?: string;
  /** ISO-8601 upper bound (exclusive). */
  until?: string;
  /** A model, whole (`anthropic/claude-sonnet-4-6`) or a part of its name. */
  model?: string;
  /** Calls and results of this tool only. */
  tool?: string;
  /** Sessions whose tool calls named this path (whole, or as its end after a `/`). */
  file?: string;
  /** Search the answers' thinking too (its own column, left out unless asked). */
  thinking?: boolean;
  /** Leave this session out (the tool's own session). */
  exceptSession?: string;
  limit?: number;
}

export interface SearchHit {
  sessionId: string;
  seq: number;
  ts: string;
  kind: string;
  tool: string;
  cwd: string;
  title: string | null;
  model: string;
  parentId: string | null;
  /** The matching text around the match, on one line. */
  snippet: string;
  /** [start, end) offsets of the matched terms in `snippet`. */
  highlights: [number, number][];
}

/** At most this many events are read from the logs to check a query's phrases. */
const PHRASE_CHECKS = 2_000;

/**
 * The FTS5 query of the query's words: each one quoted (nothing of FTS5's syntax reachable),
 * all required, in the text column only unless `thinking`. The index has no positions: a
 * phrase's words are required here and their order checked in the log (snippets.ts).
 */
function ftsQuery(terms: string[][], thinking: boolean): string {
  const words = [...new Set(terms.flat())].map((word) => `"${word.replace(/"/g, '""')}"`);
  return `${thinking ? "{text thinking}" : "{text}"} : (${words.join(" AND ")})`;
}

export function searchIndex(db: Database, text: string, filters: SearchFilters): SearchHit[] {
  const terms = queryTerms(text);
  if (terms.length === 0) throw new UsageError("the search query is empty");
  const thinking = filters.thinking === true;
  const { where, params } = conditions(filters);
  const limit = filters.limit ?? 20;
  const phrases = terms.some((term) => term.length > 1);
  // Unfiltered, FTS5 ranks and cuts before any join; filtered, the join comes first.
  const cut = where.length === 0 ? (phrases ? PHRASE_CHECKS : limit) : null;
  const statement = db.prepare(
    `select e.seq, e.ts, e.kind, e.tool, e.line_offset, s.session_id, s.path, s.cwd, s.title,
       s.model, s.parent_id, m.name as entry_model
     from (select rowid as id, rank from texts where texts match ? order by rank
       ${cut === null ? "" : "limit ?"}) t
       join entries e on e.id = t.id join sessions s on s.sid = e.sid
       join models m on m.id = e.model
     ${where.length > 0 ? `where ${where.join(" and ")}` : ""}
     order by t.rank, e.ts desc ${phrases ? "" : "limit ?"}`,
  );
  const args = [
    ftsQuery(terms, thinking),
    ...(cut === null ? [] : [cut]),
    ...params,
    ...(phrases ? [] : [limit]),
  ];
  const hits: SearchHit[] = [];
  let checked = 0;
  for (const row of statement.iterate(...args) as IterableIterator<Row>) {
    if (hits.length >= limit || (phrases && checked++ >= PHRASE_CHECKS)) break;
    const place = { path: row.path, lineOffset: row.line_offset, tool: row.tool };
    const shown = snippetAt(place, terms, thinking);
    if (shown) hits.push(hitOf(row, shown));
    else if (!phrases) hits.push(hitOf(row, { snippet: "", highlights: [] }));
  }
  return hits;
}

/** The filters as SQL conditions over `e` (entries), `s` (sessions) and `m` (models). */
function conditions(filters: SearchFilters): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, ...values: unknown[]) => {
    where.push(sql);
    params.push(...values);
  };
  if (filters.dir !== undefined) {
    const dir = filters.dir.replace(/\/+$/, "");
    add("(s.cwd = ? or substr(s.cwd, 1, ?) = ?)", dir, dir.length + 1, `${dir}/`);
  }
  if (filters.since !== undefined) add("e.ts >= ?", Date.parse(filters.since));
  if (filters.until !== undefined) add("e.ts < ?", Date.parse(filters.until));
  if (filters.model !== undefined) {
    add("(instr(m.name, ?) > 0 or instr(s.model, ?) > 0)", filters.model, filters.model);
  }
  if (filters.tool !== undefined) add("e.tool = ?", filters.tool);
  if (filters.file !== undefined) {
    const tail = `/${filters.file.replace(/^\.?\/+/, "")}`;
    add(
      "exists (select 1 from files f where f.sid = e.sid and (f.path = ? or substr(f.path, -?) = ?))",
      filters.file,
      tail.length,
      tail,
    );
  }
  if (filters.exceptSession !== undefined) add("s.session_id <> ?", filters.exceptSession);
  return { where, params };
}

interface Row {
  session_id: string;
  seq: number;
  ts: number;
  kind: string;
  tool: string;
  cwd: string;
  title: string | null;
  model: string;
  entry_model: string;
  parent_id: string | null;
  line_offset: number;
  path: string;
}

function hitOf(row: Row, shown: Snippet): SearchHit {
  return {
    sessionId: row.session_id,
    seq: row.seq,
    ts: new Date(row.ts).toISOString(),
    kind: row.kind,
    tool: row.tool,
    cwd: row.cwd,
    title: row.title,
    model: row.entry_model || row.model,
    parentId: row.parent_id,
    snippet: shown.snippet,
    highlights: shown.highlights,
  };
}
