// Brings the search index up to date with the logs under a sessions directory: each log is read
// through the one reader (session/reader.ts) from where its last indexing stopped (its offset,
// seq and hash remembered), new logs are read whole, a log that shrank or changed is read again,
// a removed one leaves the index. A damaged log is indexed up to the damage and reported.
// Called by the search command, the session_search tool and `codewhale doctor`.
import { statSync } from "node:fs";
import { basename } from "node:path";
import type { Database } from "better-sqlite3";
import { errorMessage } from "../errors.ts";
import type { SessionEvent } from "../session/events.ts";
import { listSessionFiles } from "../session/paths.ts";
import { type ResumePoint, SessionReader } from "../session/reader.ts";
import { documentOf, factsOf, type SearchDocument, type SessionFacts } from "./documents.ts";

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

/** Updates the index from every log under `sessionsDir` (or only `only`, when given). */
export function syncIndex(db: Database, sessionsDir: string, only?: readonly string[]): SyncReport {
  const paths = only ?? listSessionFiles(sessionsDir);
  const report: SyncReport = { logs: paths.length, read: 0, events: 0, damaged: [] };
  for (const path of paths) syncLog(db, path, report);
  if (!only) dropRemoved(db, new Set(paths));
  if (report.read > 0) db.pragma("wal_checkpoint(TRUNCATE)");
  const damaged = db.prepare("select path, damaged from logs where damaged is not null").all() as {
    path: string;
    damaged: string;
  }[];
  report.damaged = damaged.map((row) => ({ path: row.path, reason: row.damaged }));
  return report;
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

function syncLog(db: Database, path: string, report: SyncReport): void {
  const size = statSize(path);
  if (size === null) return;
  const sessionId = sessionIdOf(path);
  if (db.prepare("select 1 from forgotten where session_id = ?").get(sessionId)) return;
  const run = db.transaction(() => {
    const row = db.prepare("select * from logs where path = ?").get(path) as LogRow | undefined;
    if (row && row.size === size) return;
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
  });
  run.immediate();
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
    ...(resume ? { resumeAt: resume } : {}),
  });
  const writer = new EntryWriter(db, sessionId, path);
  let events = 0;
  let damage: string | null = null;
  try {
    for (const event of reader.events()) {
      writer.add(event);
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
  private facts: SessionFacts = {};
  private cost = 0;
  private readonly insertEntry;
  private readonly insertText;
  private readonly insertFile;
  private readonly findTool;

  constructor(
    private readonly db: Database,
    private readonly sessionId: string,
    private readonly path: string,
  ) {
    this.insertEntry = db.prepare(
      "insert into entries (session_id, seq, ts, kind, tool, call_id, model) values (?, ?, ?, ?, ?, ?, ?)",
    );
    this.insertText = db.prepare("insert into texts (rowid, text) values (?, ?)");
    this.insertFile = db.prepare("insert into files values (?, ?, ?)");
    this.findTool = db.prepare(
      "select tool from entries where session_id = ? and call_id = ? and kind = 'call'",
    );
    const row = db.prepare("select model from sessions where session_id = ?").get(sessionId) as
      | { model: string }
      | undefined;
    if (row) this.facts.model = row.model;
  }

  add(event: SessionEvent): void {
    const facts = factsOf(event);
    if (facts) this.fold(facts);
    const doc = documentOf(event, (callId) => this.toolOf(callId));
    if (doc) this.write(doc);
  }

  private fold(facts: SessionFacts): void {
    if (facts.cost !== undefined) this.cost += facts.cost;
    const { cost: _cost, ...rest } = facts;
    this.facts = { ...this.facts, ...rest };
  }

  private toolOf(callId: string): string {
    const known = this.tools.get(callId);
    if (known !== undefined) return known;
    const row = this.findTool.get(this.sessionId, callId) as { tool: string } | undefined;
    return row?.tool ?? "";
  }

  private write(doc: SearchDocument): void {
    if (doc.kind === "call") this.tools.set(doc.callId, doc.tool);
    const model = this.facts.model ?? "";
    const { lastInsertRowid } = this.insertEntry.run(
      this.sessionId,
      doc.seq,
      doc.ts,
      doc.kind,
      doc.tool,
      doc.callId,
      model,
    );
    this.insertText.run(lastInsertRowid, doc.text);
    for (const path of doc.paths) this.insertFile.run(lastInsertRowid, this.sessionId, path);
  }

  /** Upserts the session's row with what this read learned. */
  finish(): void {
    const f = this.facts;
    this.db
      .prepare(
        `insert into sessions (session_id, path, cwd, model, parent_id, title, started_at, cost)
         values (?, ?, ?, ?, ?, ?, ?, ?)
         on conflict(session_id) do update set path = excluded.path,
           cwd = coalesce(nullif(excluded.cwd, ''), cwd), model = coalesce(nullif(excluded.model, ''), model),
           parent_id = coalesce(excluded.parent_id, parent_id), title = coalesce(excluded.title, title),
           started_at = coalesce(nullif(excluded.started_at, ''), started_at), cost = cost + excluded.cost`,
      )
      .run(
        this.sessionId,
        this.path,
        f.cwd ?? "",
        f.model ?? "",
        f.parentId ?? null,
        f.title ?? null,
        f.startedAt ?? "",
        this.cost,
      );
  }
}

/** Removes a session's entries, files and row (before it is read again, or forgotten). */
export function clearSession(db: Database, sessionId: string): void {
  db.prepare("delete from texts where rowid in (select id from entries where session_id = ?)").run(
    sessionId,
  );
  db.prepare("delete from entries where session_id = ?").run(sessionId);
  db.prepare("delete from files where session_id = ?").run(sessionId);
  db.prepare("delete from sessions where session_id = ?").run(sessionId);
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
