// The search index's database: `$CODEWHALE_HOME/index/search.db` (the directory 0700), SQLite
// with an FTS5 table, through better-sqlite3 loaded here on first use only (a native module,
// external to every bundle: docs/rfc/implemented/architecture/2026-12-06-session-search-engine.md).
// Derived from the logs, never a second truth: deleting the directory loses nothing.
import { chmodSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { errorMessage, SearchIndexError } from "../errors.ts";

/** Bumped when the tables change: an index of another version is rebuilt from the logs. */
const INDEX_VERSION = "1";

const SCHEMA = `
create table if not exists meta(key text primary key, value text not null);
create table if not exists logs(
  path text primary key, session_id text not null, offset integer not null, seq integer not null,
  hash text not null, size integer not null, damaged text);
create table if not exists sessions(
  session_id text primary key, path text not null, cwd text not null default '',
  model text not null default '', parent_id text, title text, started_at text not null default '',
  cost real not null default 0);
create table if not exists entries(
  id integer primary key, session_id text not null, seq integer not null, ts text not null,
  kind text not null, tool text not null, call_id text not null, model text not null);
create index if not exists entries_session on entries(session_id, call_id);
create table if not exists files(entry_id integer not null, session_id text not null, path text not null);
create index if not exists files_path on files(path);
create index if not exists files_session on files(session_id);
create table if not exists forgotten(session_id text primary key);
create virtual table if not exists texts using fts5(text, tokenize = 'unicode61 remove_diacritics 2');
`;

/** The index's directory under a codewhale home. */
export function indexDirOf(home: string): string {
  return join(home, "index");
}

function indexFileOf(home: string): string {
  return join(indexDirOf(home), "search.db");
}

type DatabaseModule = { default: new (file: string) => Database };

/** better-sqlite3, loaded once on first use. */
async function loadEngine(): Promise<DatabaseModule["default"]> {
  try {
    const module = (await import("better-sqlite3")) as unknown as DatabaseModule;
    return module.default;
  } catch (error) {
    throw new SearchIndexError(
      `the search index needs the better-sqlite3 package, which did not load (${errorMessage(error)}); reinstall codewhale`,
    );
  }
}

/** Opens (creating) the index of a home; one of another version is removed and made anew. */
export async function openIndexDb(home: string): Promise<Database> {
  const Engine = await loadEngine();
  const dir = indexDirOf(home);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    let db = connect(Engine, indexFileOf(home));
    if (versionOf(db) !== INDEX_VERSION) {
      db.close();
      removeIndexFiles(home);
      db = connect(Engine, indexFileOf(home));
      db.prepare("insert or replace into meta values ('version', ?)").run(INDEX_VERSION);
    }
    return db;
  } catch (error) {
    if (error instanceof SearchIndexError) throw error;
    throw new SearchIndexError(
      `the search index at ${dir} cannot be opened: ${errorMessage(error)}`,
    );
  }
}

function connect(Engine: DatabaseModule["default"], file: string): Database {
  const db = new Engine(file);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("synchronous = NORMAL");
  db.exec(SCHEMA);
  return db;
}

function versionOf(db: Database): string | undefined {
  const row = db.prepare("select value from meta where key = 'version'").get() as
    | { value: string }
    | undefined;
  if (row) return row.value;
  const empty = db.prepare("select count(*) as n from logs").get() as { n: number };
  if (empty.n === 0) db.prepare("insert into meta values ('version', ?)").run(INDEX_VERSION);
  return empty.n === 0 ? INDEX_VERSION : undefined;
}

/** Removes the index's files (a rebuild starts from nothing). */
export function removeIndexFiles(home: string): void {
  for (const suffix of ["", "-wal", "-shm"])
    rmSync(`${indexFileOf(home)}${suffix}`, { force: true });
}

/** The bytes the index takes on disk (the database and its write-ahead log), 0 when absent. */
export function indexBytes(home: string): number {
  let total = 0;
  for (const suffix of ["", "-wal"]) {
    total += statSync(`${indexFileOf(home)}${suffix}`, { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}
