// Answers a search over the index: the user's words and "quoted phrases" become an FTS5 query
// (every term required, nothing of FTS5's own syntax reachable), filtered by project directory,
// dates, model, tool and file, ranked by BM25, each hit with a snippet whose matches are
// marked by offsets. Used by `codewhale sessions search` and the session_search tool.
import type { Database } from "better-sqlite3";
import { UsageError } from "../errors.ts";

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

const OPEN = "\u0002";
const CLOSE = "\u0003";

/** The FTS5 query of what a user typed: quoted phrases kept, other words each required. */
function ftsQuery(text: string): string {
  const parts: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|(\S+)/g)) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are taken out
    const phrase = (match[1] ?? match[2] ?? "").replace(/["\u0000-\u001f]/g, " ").trim();
    if (phrase !== "") parts.push(`"${phrase}"`);
  }
  if (parts.length === 0) throw new UsageError("the search query is empty");
  return parts.join(" AND ");
}

export function searchIndex(db: Database, text: string, filters: SearchFilters): SearchHit[] {
  const where: string[] = ["texts match ?"];
  const params: unknown[] = [ftsQuery(text)];
  if (filters.dir !== undefined) {
    const dir = filters.dir.replace(/\/+$/, "");
    where.push("(s.cwd = ? or substr(s.cwd, 1, ?) = ?)");
    params.push(dir, dir.length + 1, `${dir}/`);
  }
  if (filters.since !== undefined) where.push("e.ts >= ?") && params.push(filters.since);
  if (filters.until !== undefined) where.push("e.ts < ?") && params.push(filters.until);
  if (filters.model !== undefined) {
    where.push("(instr(e.model, ?) > 0 or instr(s.model, ?) > 0)");
    params.push(filters.model, filters.model);
  }
  if (filters.tool !== undefined) where.push("e.tool = ?") && params.push(filters.tool);
  if (filters.file !== undefined) {
    where.push(
      "exists (select 1 from files f where f.session_id = e.session_id and (f.path = ? or substr(f.path, -?) = ?))",
    );
    const tail = `/${filters.file.replace(/^\.?\/+/, "")}`;
    params.push(filters.file, tail.length, tail);
  }
  if (filters.exceptSession !== undefined) {
    where.push("e.session_id <> ?") && params.push(filters.exceptSession);
  }
  params.push(filters.limit ?? 20);
  const rows = db
    .prepare(
      `select e.session_id, e.seq, e.ts, e.kind, e.tool, s.cwd, s.title, s.model, s.parent_id,
         snippet(texts, 0, '${OPEN}', '${CLOSE}', '…', 24) as snippet
       from texts join entries e on e.id = texts.rowid join sessions s on s.session_id = e.session_id
       where ${where.join(" and ")}
       order by bm25(texts), e.ts desc limit ?`,
    )
    .all(...params) as Row[];
  return rows.map(hitOf);
}

interface Row {
  session_id: string;
  seq: number;
  ts: string;
  kind: string;
  tool: string;
  cwd: string;
  title: string | null;
  model: string;
  parent_id: string | null;
  snippet: string;
}

function hitOf(row: Row): SearchHit {
  const { snippet, highlights } = marked(row.snippet.replace(/\s+/g, " ").trim());
  return {
    sessionId: row.session_id,
    seq: row.seq,
    ts: row.ts,
    kind: row.kind,
    tool: row.tool,
    cwd: row.cwd,
    title: row.title,
    model: row.model,
    parentId: row.parent_id,
    snippet,
    highlights,
  };
}

/** Takes FTS5's markers out of a snippet, keeping where they were. */
function marked(raw: string): { snippet: string; highlights: [number, number][] } {
  let snippet = "";
  const highlights: [number, number][] = [];
  let start = -1;
  for (const char of raw) {
    if (char === OPEN) start = snippet.length;
    else if (char === CLOSE && start >= 0) {
      highlights.push([start, snippet.length]);
      start = -1;
    } else snippet += char;
  }
  return { snippet, highlights };
}
