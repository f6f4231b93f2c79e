// Brings the search index up to date with the logs under a sessions directory: each log is read
// through the one reader (session/reader.ts) from where its last indexing stopped (its offset,
// seq and hash remembered), new logs are read whole, a log that shrank or changed is read again,
// a removed one leaves the index. A damaged log is indexed up to the damage and reported. The
// hash chain of every line is checked; the payloads' schema is not (documents.ts reads any JSON
// safely), which makes a first full index several times faster.
// Called by the search command, the session_search tool and `codewhale doctor`.
import { statSync } from "node:fs";
import { basename } from "node:path";
import type { Database } from "better-sqlite3";
import { errorMessage } from "../errors.ts";
import type { SessionEvent } from "../session/events.ts";
import { listSessionFiles } from "../session/paths.ts";
import { type ResumePoint, SessionReader } from "../session/reader.ts";
import { documentOf, factsOf, type SearchDocument, type SessionFacts } from "./documents.ts";
import { compactIndexDb } from "./index-db.ts";

/** What one update did. */
export interface SyncReport {
  logs: number;
  /** Logs read (wholly or from where they stopped). */
  read: number;
  /** Events newly indexed. */
  events: number;
  /** Logs indexed only up to damage: the path and why. */
  damaged: { path: string; reason: string }[];
}

interface LogRow {
  session_id: string;
  offset: number;
  seq: number;
  hash: string;
  size: number;
  damaged: string | null;
}

/**
 * An update that indexed at least this many events, and a quarter of all the index holds (a
 * first build, a big catch-up), compacts the index after and empties the write-ahead log;
 * smaller ones leave that to SQLite's automatic checkpoints.
 */
const COMPACT_AFTER_EVENTS = 1_000;

function entryCount(db: Database): number {
  return (db.prepare("select count(*) as n from entries").get() as { n: number }).n;
}

/** Logs read in one transaction: fewer commits, and fewer segments for FTS5 to merge. */
const BATCH_BYTES = 32 * 1024 * 1024;

/** Updates the index from every log under `sessionsDir` (or only `only`, when given). */
export function syncIndex(db: Database, sessionsDir: string, only?: readonly string[]): SyncReport {
  const paths = only ?? listSessionFiles(sessionsDir);
  const report: SyncReport = { logs: paths.length, read: 0, events: 0, damaged: [] };
  for (const batch of changedLogs(db, paths)) {
    db.transaction(() => {
      for (const { path, size } of batch) syncLog(db, path, size, report);
    }).immediate();
  }
  if (!only) dropRemoved(db, new Set(paths));
  if (report.events >= COMPACT_AFTER_EVENTS && report.events * 4 >= entryCount(db)) {
    compactIndexDb(db);
    db.pragma("wal_checkpoint(TRUNCATE)");
  }
  const damaged = db.prepare("select path, damaged from logs where damaged is not null").all() as {
    path: string;
    damaged: string;
  }[];
  report.damaged = damaged.map((row) => ({ path: row.path, reason: row.damaged }));
  return report;
}

/**
 * The logs whose size differs from what the index saw (and not forgotten), in batches of about
 * BATCH_BYTES: an unchanged log costs a stat, and no transaction.
 */
function changedLogs(db: Database, paths: readonly string[]): { path: string; size: number }[][] {
  const seen = knownSizes(db, paths);
  const forgotten = new Set(
    (db.prepare("select session_id from forgotten").all() as { session_id: string }[]).map(
      (row) => row.session_id,
    ),
  );
  const batches: { path: string; size: number }[][] = [];
  let batch: { path: string; size: number }[] = [];
  let bytes = 0;
  for (const path of paths) {
    const size = statSize(path);
    if (size === null || seen.get(path) === size || forgotten.has(sessionIdOf(path))) continue;
    batch.push({ path, size });
    bytes += size - (seen.get(path) ?? 0);
    if (bytes >= BATCH_BYTES) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** The sizes the index saw of `paths`: one query for a walk, a lookup each for a few logs. */
function knownSizes(db: Database, paths: readonly string[]): Map<string, number> {
  type Row = { path: string; size: number };
  if (paths.length > 16) {
    const rows = db.prepare("select path, size from logs").all() as Row[];
    return new Map(rows.map((row) => [row.path, row.size]));
  }
  const one = db.prepare("select path, size from logs where path = ?");
  const rows = paths.map((path) => one.get(path) as Row | undefined);
  return new Map(rows.flatMap((row) => (row ? [[row.path, row.size] as const] : [])));
}

function sessionIdOf(path: string): string {
  return basename(path).replace(/\.jsonl$/, "");
}

/** The size of a log now; null when it is gone or unreadable. */
function statSize(path: string): number | null {
  try {
    return statSync(path, { throwIfNoEntry: false })?.size ?? null;
  } catch {
    return null;
  }
}

/** Reads one changed log into the index, in the caller's transaction (its row read again). */
function syncLog(db: Database, path: string, size: number, report: SyncReport): void {
  const sessionId = sessionIdOf(path);
  if (db.prepare("select 1 from forgotten where session_id = ?").get(sessionId)) return;
  const row = db.prepare("select * from logs where path = ?").get(path) as LogRow | undefined;
  if (row && row.size === size) return; // another process indexed it meanwhile
  report.read++;
  const resume = row && size >= row.offset && row.offset > 0 ? pointOf(row) : undefined;
  if (!resume) clearSession(db, sessionId);
  const outcome = readInto(db, path, sessionId, resume);
  if (resume && outcome.damagedAt === resume.offset) {
    clearSession(db, sessionId); // replaced, not appended to: read it again from the start
    report.events += readInto(db, path, sessionId, undefined).events;
    return;
  }
  report.events += outcome.events;
}

function pointOf(row: LogRow): ResumePoint {
  return { offset: row.offset, seq: row.seq, hash: row.hash };
}

interface ReadOutcome {
  events: number;
  damagedAt: number | null;
}

/** Reads a log (from `resume`, else the start) into the index and records where it stopped. */
function readInto(
  db: Database,
  path: string,
  sessionId: string,
  resume: ResumePoint | undefined,
): ReadOutcome {
  const reader = new SessionReader(path, {
    tolerateDamagedTail: true,
    validatePayloads: false,
    ...(resume ? { resumeAt: resume } : {}),
  });
  const writer = new EntryWriter(db, sessionId, path);
  let events = 0;
  let damage: string | null = null;
  try {
    for (const event of reader.events()) {
      writer.add(event, reader.lineOffset);
      events++;
    }
  } catch (error) {
    damage = errorMessage(error);
  }
  writer.finish();
  const { summary } = reader;
  if (summary.damaged) damage = `line ${summary.damaged.line}: ${summary.damaged.reason}`;
  const size = statSize(path) ?? 0;
  db.prepare("insert or replace into logs values (?, ?, ?, ?, ?, ?, ?)").run(
    path,
    sessionId,
    summary.validBytes,
    summary.lastSeq,
    summary.lastHash,
    damage === null && summary.torn === null ? summary.validBytes : size,
    damage,
  );
  return { events, damagedAt: summary.damaged?.offset ?? null };
}

/** Writes one session's entries and folds its facts into its row. */
class EntryWriter {
  private readonly tools = new Map<string, string>();
  private readonly models = new Map<string, number>();
  private facts: SessionFacts = {};
  private cost = 0;
  private readonly sid: number;
  private readonly insertEntry;
  private readonly insertText;
  private readonly insertFile;
  private readonly findTool;

  constructor(
    private readonly db: Database,
    sessionId: string,
    private readonly path: string,
  ) {
    this.insertEntry = db.prepare(
      "insert into entries (sid, seq, ts, kind, tool, call_id, model, line_offset) values (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.insertText = db.prepare("insert into texts (rowid, text, thinking) values (?, ?, ?)");
    this.insertFile = db.prepare("insert or ignore into files values (?, ?)");
    this.findTool = db.prepare(
      "select tool from entries where sid = ? and call_id = ? and kind = 'call'",
    );
    db.prepare(
      "insert into sessions (session_id, path) values (?, ?) on conflict(session_id) do nothing",
    ).run(sessionId, path);
    const row = db
      .prepare("select sid, model from sessions where session_id = ?")
      .get(sessionId) as {
      sid: number;
      model: string;
    };
    this.sid = row.sid;
    if (row.model !== "") this.facts.model = row.model;
  }

  add(event: SessionEvent, lineOffset: number): void {
    const facts = factsOf(event);
    if (facts) this.fold(facts);
    const doc = documentOf(event, (callId) => this.toolOf(callId));
    if (doc) this.write(doc, lineOffset);
  }

  private fold(facts: SessionFacts): void {
    if (facts.cost !== undefined) this.cost += facts.cost;
    const { cost: _cost, ...rest } = facts;
    this.facts = { ...this.facts, ...rest };
  }

  private toolOf(callId: string): string {
    const known = this.tools.get(callId);
    if (known !== undefined) return known;
    const row = this.findTool.get(this.sid, callId) as { tool: string } | undefined;
    return row?.tool ?? "";
  }

  private modelId(name: string): number {
    const known = this.models.get(name);
    if (known !== undefined) return known;
    this.db.prepare("insert or ignore into models (name) values (?)").run(name);
    const row = this.db.prepare("select id from models where name = ?").get(name) as { id: number };
    this.models.set(name, row.id);
    return row.id;
  }

  private write(doc: SearchDocument, lineOffset: number): void {
    if (doc.kind === "call") this.tools.set(doc.callId, doc.tool);
    const { lastInsertRowid } = this.insertEntry.run(
      this.sid,
      doc.seq,
      timeOf(doc.ts),
      doc.kind,
      doc.tool,
      doc.kind === "call" ? doc.callId : "",
      this.modelId(this.facts.model ?? ""),
      lineOffset,
    );
    this.insertText.run(lastInsertRowid, doc.text, doc.thinking);
    for (const path of doc.paths) this.insertFile.run(this.sid, path);
  }

  /** Updates the session's row with what this read learned. */
  finish(): void {
    const f = this.facts;
    this.db
      .prepare(
        `update sessions set path = ?, cwd = coalesce(nullif(?, ''), cwd),
           model = coalesce(nullif(?, ''), model), parent_id = coalesce(?, parent_id),
           title = coalesce(?, title), started_at = coalesce(nullif(?, ''), started_at),
           cost = cost + ? where sid = ?`,
      )
      .run(
        this.path,
        f.cwd ?? "",
        f.model ?? "",
        f.parentId ?? null,
        f.title ?? null,
        f.startedAt ?? "",
        this.cost,
        this.sid,
      );
  }
}

/** An event's time in milliseconds (0 when the log's `ts` is not a date). */
function timeOf(ts: string): number {
  const time = Date.parse(ts);
  return Number.isNaN(time) ? 0 : time;
}

/** Removes a session's entries, files and row (before it is read again, or forgotten). */
export function clearSession(db: Database, sessionId: string): void {
  const row = db.prepare("select sid from sessions where session_id = ?").get(sessionId) as
    | { sid: number }
    | undefined;
  if (row) {
    db.prepare("delete from texts where rowid in (select id from entries where sid = ?)").run(
      row.sid,
    );
    db.prepare("delete from entries where sid = ?").run(row.sid);
    db.prepare("delete from files where sid = ?").run(row.sid);
    db.prepare("delete from sessions where sid = ?").run(row.sid);
  }
  db.prepare("delete from logs where session_id = ?").run(sessionId);
}

/** Drops the sessions whose logs are gone. */
function dropRemoved(db: Database, present: Set<string>): void {
  const rows = db.prepare("select path, session_id from logs").all() as {
    path: string;
    session_id: string;
  }[];
  const gone = rows.filter((row) => !present.has(row.path));
  if (gone.length === 0) return;
  db.transaction(() => {
    for (const row of gone) clearSession(db, row.session_id);
  })();
}
