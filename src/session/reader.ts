// Reads and verifies a session log as a stream, in constant memory: every line is checked for
// JSON, schema version, dense seq, the hash chain and (by default) its payload schema. A torn
// last line is reported in the summary; any other damage throws SessionCorruptError, or, for
// read-only views (`tolerateDamagedTail`), ends the read at the last good line and is reported.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { z } from "zod";
import { SessionCorruptError } from "../errors.ts";
import { canonicalJson } from "./canonical-json.ts";
import {
  type EventType,
  isEventType,
  lineSchemas,
  SESSION_SCHEMA_VERSION,
  type SessionEvent,
} from "./events.ts";
import { bodyOf, chainHash, hMemberAt, hOf } from "./hash-chain.ts";
import { MAX_JSON_DEPTH } from "./json-depth.ts";

export interface ReadOptions {
  /** Stop after the event with this seq (a snapshot as the session stood then). */
  untilSeq?: number;
  /** Validate each payload against its schema (default true). */
  validatePayloads?: boolean;
  /** Also check that each body is in canonical form (the `sessions verify` audit). */
  strictCanonical?: boolean;
  /**
   * Read-only views (`sessions show`, exports, `sessions repair`): a bad line after valid ones
   * ends the read there instead of throwing, and `summary.damaged` names it. A log with no valid
   * first line still throws.
   */
  tolerateDamagedTail?: boolean;
  /**
   * Continue a read that already verified the log up to this point (the search index's
   * incremental update): reading starts at `offset`, the chain at `seq` and `hash`.
   */
  resumeAt?: ResumePoint;
}

/** Where an earlier read of the same log stopped: the bytes, seq and hash it had verified. */
export interface ResumePoint {
  offset: number;
  seq: number;
  hash: string;
}

/** The first bad line of a log that is valid before it; everything from it on is the tail. */
export interface TailDamage {
  /** 1-based line number of the first bad line. */
  line: number;
  reason: string;
  /** Byte offset where the bad line starts: the log is valid before it. */
  offset: number;
  /** Bytes from `offset` to the end of the file when it was read. */
  bytes: number;
  /** The seq of the last good event. */
  afterSeq: number;
}

export interface ReadSummary {
  events: number;
  lastSeq: number;
  lastHash: string;
  /** Bytes of the file holding complete, verified lines. */
  validBytes: number;
  /** Trailing bytes after the last complete line that do not form a valid event. */
  torn: { offset: number; bytes: number } | null;
  /** The last event was complete but its newline was never written. */
  missingNewline: boolean;
  /** Set only with `tolerateDamagedTail`: where the damaged tail starts. */
  damaged?: TailDamage;
}

const CHUNK_BYTES = 4 * 1024 * 1024;

function grow(buffer: Buffer): Buffer {
  const larger = Buffer.allocUnsafe(buffer.length * 2);
  buffer.copy(larger);
  return larger;
}

/** Iterates the verified events of a log; `summary` is filled once iteration completes. */
export class SessionReader {
  readonly summary: ReadSummary = {
    events: 0,
    lastSeq: -1,
    lastHash: "",
    validBytes: 0,
    torn: null,
    missingNewline: false,
  };

  /** The byte offset in the log of the line of the event last yielded. */
  lineOffset = 0;

  constructor(
    readonly path: string,
    private readonly options: ReadOptions = {},
  ) {}

  *events(): Generator<SessionEvent> {
    const fd = openSync(this.path, "r");
    try {
      yield* this.readChunks(fd);
    } finally {
      closeSync(fd);
    }
  }

  private *readChunks(fd: number): Generator<SessionEvent> {
    let buffer: Buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let carried = 0; // bytes of an unfinished line kept at the start of `buffer`
    let dataOffset = this.startAt(); // file offset of buffer[0]
    for (let position = dataOffset; ; ) {
      if (carried === buffer.length) buffer = grow(buffer); // a line longer than the buffer
      const read = readSync(fd, buffer, carried, buffer.length - carried, position);
      if (read === 0) break;
      position += read;
      const end = carried + read;
      const lastNewline = buffer.lastIndexOf(10, end - 1);
      if (lastNewline < 0) {
        carried = end;
        continue;
      }
      const text = buffer.toString("utf8", 0, lastNewline);
      let lineAt = dataOffset;
      for (let from = 0; from <= text.length; ) {
        const newline = text.indexOf("\n", from);
        const to = newline < 0 ? text.length : newline;
        const line = text.slice(from, to);
        const event = this.acceptOrStop(line, fd, dataOffset, text, from);
        if (event === null) return;
        this.lineOffset = lineAt;
        yield event;
        lineAt += Buffer.byteLength(line) + 1;
        from = to + 1;
        if (this.reachedEnd()) {
          this.summary.validBytes = dataOffset + Buffer.byteLength(text.slice(0, to)) + 1;
          return;
        }
      }
      dataOffset += lastNewline + 1;
      this.summary.validBytes = dataOffset;
      carried = buffer.copy(buffer, 0, lastNewline + 1, end);
    }
    yield* this.finishRead(buffer, carried);
  }

  /** The offset to read from: 0, or the resume point, taken as verified. */
  private startAt(): number {
    const resume = this.options.resumeAt;
    if (!resume) return 0;
    this.summary.events = resume.seq + 1;
    this.summary.lastSeq = resume.seq;
    this.summary.lastHash = resume.hash;
    this.summary.validBytes = resume.offset;
    return resume.offset;
  }

  private *finishRead(buffer: Buffer, carried: number): Generator<SessionEvent> {
    if (carried > 0) yield* this.readTail(Buffer.from(buffer.subarray(0, carried)));
    if (this.summary.events === 0) {
      throw new SessionCorruptError(this.path, 1, "empty log: no session/start event");
    }
  }

  private *readTail(tail: Buffer): Generator<SessionEvent> {
    const offset = this.summary.validBytes;
    let event: SessionEvent;
    try {
      event = this.accept(tail.toString("utf8"));
    } catch (error) {
      if (!(error instanceof SessionCorruptError)) throw error;
      this.summary.torn = { offset, bytes: tail.length };
      return;
    }
    this.summary.missingNewline = true;
    this.lineOffset = offset;
    this.summary.validBytes += tail.length;
    yield event;
  }

  /**
   * Accepts one complete line; in tolerant mode a bad line after valid ones records the damage
   * (its offset from the bytes before it in this chunk) and returns null to end the read.
   */
  private acceptOrStop(
    line: string,
    fd: number,
    dataOffset: number,
    chunk: string,
    from: number,
  ): SessionEvent | null {
    try {
      return this.accept(line);
    } catch (error) {
      const tolerate = this.options.tolerateDamagedTail && this.summary.events > 0;
      if (!tolerate || !(error instanceof SessionCorruptError)) throw error;
      const offset = dataOffset + Buffer.byteLength(chunk.slice(0, from));
      const bytes = fstatSync(fd).size - offset;
      const afterSeq = this.summary.lastSeq;
      this.summary.damaged = { line: error.line, reason: error.reason, offset, bytes, afterSeq };
      this.summary.validBytes = offset;
      return null;
    }
  }

  private reachedEnd(): boolean {
    const until = this.options.untilSeq;
    return until !== undefined && this.summary.lastSeq >= until;
  }

  private accept(line: string): SessionEvent {
    const event = this.verifyLine(line);
    this.summary.events++;
    this.summary.lastSeq = event.seq;
    this.summary.lastHash = event.h;
    return event;
  }

  private verifyLine(line: string): SessionEvent {
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw this.corrupt("invalid JSON");
    }
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw this.corrupt("line is not a JSON object");
    }
    if (raw.v !== SESSION_SCHEMA_VERSION) {
      throw this.corrupt(`unsupported schema version v=${String(raw.v)}`);
    }
    const expected = this.summary.lastSeq + 1;
    if (raw.seq !== expected) {
      throw this.corrupt(`seq gap: expected ${expected}, found ${String(raw.seq)}`);
    }
    const at = hMemberAt(line);
    if (at < 0) throw this.corrupt('missing or malformed "h" at the end of the line');
    if (chainHash(this.summary.lastHash, bodyOf(line, at)) !== hOf(line, at)) {
      throw this.corrupt("hash chain broken");
    }
    this.checkContent(raw, line, at, expected);
    return raw as unknown as SessionEvent;
  }

  private checkContent(raw: Record<string, unknown>, line: string, at: number, seq: number): void {
    const type = raw.type;
    if (!isEventType(type)) throw this.corrupt(`unknown event type "${String(type)}"`);
    if (seq === 0 && type !== "session/start") {
      throw this.corrupt("first event is not session/start");
    }
    const issues = this.options.validatePayloads === false ? undefined : this.issues(type, raw);
    if (issues) {
      const issue = issues[0];
      const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
      throw this.corrupt(`invalid ${type}: ${where}${issue?.message ?? "schema mismatch"}`);
    }
    if (this.options.strictCanonical) {
      const { h: _h, ...rest } = raw;
      if (canonicalJson(rest) !== bodyOf(line, at)) {
        throw this.corrupt("line is not in canonical JSON form");
      }
    }
  }

  /**
   * The line's schema problems, if any; a value nested too deep for zod's recursive check
   * (thousands of levels, which the agent never records: session/json-depth.ts) is damage,
   * said so.
   */
  private issues(type: EventType, raw: Record<string, unknown>): z.core.$ZodIssue[] | undefined {
    try {
      return lineSchemas[type].safeParse(raw).error?.issues;
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw this.corrupt(
        `invalid ${type}: JSON nested too deeply to check (the agent records at most ${MAX_JSON_DEPTH} levels)`,
      );
    }
  }

  private corrupt(reason: string): SessionCorruptError {
    return new SessionCorruptError(this.path, this.summary.events + 1, reason);
  }
}

/** Reads and verifies a whole log; throws SessionCorruptError on damage. */
export function readSession(
  path: string,
  options: ReadOptions = {},
): { events: SessionEvent[]; summary: ReadSummary } {
  const reader = new SessionReader(path, options);
  const events = [...reader.events()];
  return { events, summary: reader.summary };
}
