// Reads and verifies a session log as a stream, in constant memory: every line is checked for
// JSON, schema version, dense seq, the hash chain and (by default) its payload schema. A torn
// last line is reported in the summary; any other damage throws SessionCorruptError.
import { closeSync, openSync, readSync } from "node:fs";
import { SessionCorruptError } from "../errors.ts";
import { canonicalJson } from "./canonical-json.ts";
import {
  type EventType,
  isEventType,
  lineSchemas,
  SESSION_SCHEMA_VERSION,
  type SessionEvent,
} from "./events.ts";
import { chainHash, splitLine } from "./hash-chain.ts";

export interface ReadOptions {
  /** Stop after the event with this seq (a snapshot as the session stood then). */
  untilSeq?: number;
  /** Validate each payload against its schema (default true). */
  validatePayloads?: boolean;
  /** Also check that each body is in canonical form (the `sessions verify` audit). */
  strictCanonical?: boolean;
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
}

const CHUNK_BYTES = 4 * 1024 * 1024;

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
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let carry: Buffer = Buffer.alloc(0);
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (read === 0) break;
      const data = carry.length > 0 ? Buffer.concat([carry, buffer.subarray(0, read)]) : buffer;
      const end = carry.length > 0 ? data.length : read;
      const lastNewline = data.lastIndexOf(10, end - 1);
      if (lastNewline < 0) {
        carry = Buffer.from(data.subarray(0, end));
        continue;
      }
      const lines = data.toString("utf8", 0, lastNewline).split("\n");
      for (const line of lines) {
        const event = this.accept(line, Buffer.byteLength(line) + 1);
        if (event) yield event;
        if (this.reachedEnd()) return;
      }
      carry = Buffer.from(data.subarray(lastNewline + 1, end));
    }
    if (carry.length > 0) yield* this.readTail(carry);
    if (this.summary.events === 0 && !this.reachedEnd()) {
      throw new SessionCorruptError(this.path, 1, "empty log: no session/start event");
    }
  }

  private *readTail(tail: Buffer): Generator<SessionEvent> {
    const offset = this.summary.validBytes;
    try {
      const event = this.accept(tail.toString("utf8"), tail.length);
      this.summary.missingNewline = true;
      if (event) yield event;
    } catch (error) {
      if (!(error instanceof SessionCorruptError)) throw error;
      this.summary.torn = { offset, bytes: tail.length };
    }
  }

  private reachedEnd(): boolean {
    const until = this.options.untilSeq;
    return until !== undefined && this.summary.lastSeq >= until;
  }

  private accept(line: string, bytes: number): SessionEvent | undefined {
    const lineNumber = this.summary.events + 1;
    const event = verifyLine(line, lineNumber, this.summary, this.path, this.options);
    this.summary.events++;
    this.summary.lastSeq = event.seq;
    this.summary.lastHash = event.h;
    this.summary.validBytes += bytes;
    return event;
  }
}

function verifyLine(
  line: string,
  lineNumber: number,
  state: ReadSummary,
  path: string,
  options: ReadOptions,
): SessionEvent {
  const fail = (reason: string) => new SessionCorruptError(path, lineNumber, reason);
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(line) as Record<string, unknown>;
  } catch {
    throw fail("invalid JSON");
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw fail("line is not a JSON object");
  }
  if (raw.v !== SESSION_SCHEMA_VERSION) throw fail(`unsupported schema version v=${String(raw.v)}`);
  const expected = state.lastSeq + 1;
  if (raw.seq !== expected) throw fail(`seq gap: expected ${expected}, found ${String(raw.seq)}`);
  const parts = splitLine(line);
  if (!parts) throw fail('missing or malformed "h" at the end of the line');
  if (chainHash(state.lastHash, parts.body) !== parts.h) throw fail("hash chain broken");
  if (!isEventType(raw.type)) throw fail(`unknown event type "${String(raw.type)}"`);
  if (expected === 0 && raw.type !== "session/start")
    throw fail("first event is not session/start");
  if (options.validatePayloads !== false) validatePayload(raw, raw.type, fail);
  if (options.strictCanonical) checkCanonical(raw, parts.body, fail);
  return raw as unknown as SessionEvent;
}

function validatePayload(
  raw: Record<string, unknown>,
  type: EventType,
  fail: (reason: string) => SessionCorruptError,
): void {
  const result = lineSchemas[type].safeParse(raw);
  if (result.success) return;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  throw fail(`invalid ${type}: ${where}${issue?.message ?? "schema mismatch"}`);
}

function checkCanonical(
  raw: Record<string, unknown>,
  body: string,
  fail: (reason: string) => SessionCorruptError,
): void {
  const { h: _h, ...rest } = raw;
  if (canonicalJson(rest) !== body) throw fail("line is not in canonical JSON form");
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
