// The search index's database: `$CODEWHALE_HOME/index/search.db` (the directory 0700), SQLite
// with an FTS5 table, through better-sqlite3 loaded here on first use only (a native module,
// external to every bundle: docs/rfc/implemented/architecture/2026-12-06-session-search-engine.md).
// Derived from the logs, never a second truth: deleting the directory loses nothing.
import { chmodSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { errorMessage, SearchIndexError } from "../errors.ts";

/** Bumped when the tables change: an index of another version is rebuilt from the logs. */
const INDEX_VERSION = "4";

/**
 * `texts` is contentless (`content=''`) with `detail=column`: it holds which events and columns
 * each word is in, not the text (which stays in the log) nor the words' positions; a hit's
 * snippet is read from the log at the entry's `line_offset`, and a phrase is checked there
 * (snippets.ts). Thinking is a column of its own, searched only when asked. Entries are kept
 * small: the session by its integer `sid`, the time in milliseconds, the model by its id; a
 * session's `files` hold each path its calls named once.
 */
const SCHEMA = `
create table if not exists meta(key text primary key, value text not null);
create table if not exists logs(
  path text primary key, session_id text not null, offset integer not null, seq integer not null,
  hash text not null, size integer not null, damaged text);
create table if not exists sessions(
  sid integer primary key, session_id text not null unique, path text not null,
  cwd text not null default '', model text not null default '', parent_id text, title text,
  started_at text not null default '', cost real not null default 0);
create table if not exists models(id integer primary key, name text not null unique);
create table if not exists entries(
  id integer primary key, sid integer not null, seq integer not null, ts integer not null,
  kind text not null, tool text not null, call_id text not null, model integer not null,
  line_offset integer not null);
create index if not exists entries_sid on entries(sid);
create index if not exists entries_call on entries(sid, call_id) where kind = 'call';
create table if not exists files(sid integer not null, path text not null,
  primary key (sid, path)) without rowid;
create table if not exists forgotten(session_id text primary key);
create virtual table if not exists texts using fts5(text, thinking, content = '',
  contentless_delete = 1, detail = column, tokenize = 'unicode61 remove_diacritics 2');
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
  db.pragma("auto_vacuum = INCREMENTAL"); // before the first table: lets compact() give pages back
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("synchronous = NORMAL");
  db.exec(SCHEMA);
  setHashSize(db);
  return db;
}

/**
 * FTS5 writes a new segment each time its pending terms pass `hashsize` (1 MB by default), and
 * merges segments as they pile up: 32 MB (about one batch of the indexer) writes and merges
 * fewer, which took about 12 % off a first full index. A setting of the table, kept in its
 * `texts_config`; the memory is held only until a transaction commits.
 */
const FTS_HASH_SIZE = 32 * 1024 * 1024;

function setHashSize(db: Database): void {
  const row = db.prepare("select v from texts_config where k = 'hashsize'").get() as
    | { v: number }
    | undefined;
  if (row?.v === FTS_HASH_SIZE) return;
  db.exec(`insert into texts(texts, rank) values ('hashsize', ${FTS_HASH_SIZE})`);
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

/**
 * After an update that indexed many events: FTS5's segments merged into one (smaller, and
 * faster to query) and the pages this frees given back to the file system.
 */
export function compactIndexDb(db: Database): void {
  db.prepare("insert into texts(texts) values ('optimize')").run();
  db.pragma("incremental_vacuum");
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
