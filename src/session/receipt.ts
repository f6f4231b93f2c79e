// Checks a log's receipts: fed the verified events in order (`push`), then `finish` checks the
// signatures of its `session/checkpoint`s against the trusted key and the checkpoint index,
// and returns how far the log is signed. Every problem is a SessionCorruptError naming the
// line. Used by `sessions verify`, by resume (agent/session-open.ts) and by deriveFromLog.
import { verify } from "node:crypto";
import { SessionCorruptError } from "../errors.ts";
import { checkpointMessage } from "./checkpoint.ts";
import { latestCheckpointRecord } from "./checkpoint-index.ts";
import type { EventOf, SessionEvent } from "./events.ts";
import { isSessionId, sessionIdOfPath } from "./paths.ts";
import type { TrustedKey } from "./signing-key.ts";

export interface ReceiptTrust {
  /** The key checkpoints must be signed by; null when there is none to check them with. */
  key: TrustedKey | null;
  /** Where the user's key would be, named when `key` is null. */
  keyPath: string;
  /** The checkpoint index, or null when it is not consulted (`sessions verify --key`). */
  indexPath: string | null;
  /** Check every checkpoint's signature, not only the last one's (the `sessions verify` audit). */
  everySignature?: boolean;
  /** A log with no checkpoint is a problem (`sessions verify --key`), not "unsigned". */
  requireSignature?: boolean;
}

/** What the checkpoint index said about the log. */
export type IndexCheck =
  | { state: "agrees"; seq: number; path: string }
  | { state: "no-record"; path: string }
  | { state: "missing"; path: string }
  | { state: "not-used" };

export interface Receipt {
  sessionId: string;
  lastSeq: number;
  /** The last checkpoint: the seq it signs, its own seq, and the key's fingerprint. */
  signed: { seq: number; checkpointSeq: number; key: string } | null;
  checkpoints: number;
  /** Lines after the last checkpoint (every line when there is none). */
  unsignedLines: number;
  index: IndexCheck;
}

type Checkpoint = EventOf<"session/checkpoint">;
type IndexRecord = ReturnType<typeof latestCheckpointRecord>;

export class ReceiptVerifier {
  private sessionId = "";
  private previous: { seq: number; h: string } | null = null;
  private last: Checkpoint | null = null;
  private checkpoints = 0;
  /** `signed_h` by `signed_seq`, to compare with the index. */
  private readonly signedAt = new Map<number, string>();

  /**
   * The index's record for the session the file is named for, read when the verifier is made,
   * before the log is read: a writer records a checkpoint in the index only after the log
   * holding it is synced, so a log read after this holds every checkpoint the record names,
   * even while its writer goes on (a record read after the log could be newer than it).
   */
  private readonly early: { sessionId: string; record: IndexRecord } | null;

  constructor(
    readonly path: string,
    private readonly trust: ReceiptTrust,
  ) {
    const named = sessionIdOfPath(path);
    this.early =
      trust.indexPath !== null && isSessionId(named)
        ? { sessionId: named, record: latestCheckpointRecord(trust.indexPath, named) }
        : null;
  }

  push(event: SessionEvent): void {
    if (event.type === "session/start") this.sessionId = event.session_id;
    else if (event.type === "session/checkpoint") this.checkpoint(event);
    this.previous = { seq: event.seq, h: event.h };
  }

  /** Checks what is left (the last signature, the index) and reports how far the log is signed. */
  finish(): Receipt {
    const lastSeq = this.previous?.seq ?? -1;
    const named = sessionIdOfPath(this.path);
    if (isSessionId(named) && this.sessionId !== "" && named !== this.sessionId) {
      throw this.corrupt(0, `holds session ${this.sessionId}, not ${named} its file is named for`);
    }
    const last = this.last;
    if (last && !this.trust.everySignature) this.checkSignature(last);
    if (!last && this.trust.requireSignature) {
      throw this.corrupt(lastSeq + 1, "no checkpoint: nothing in this log is signed");
    }
    return {
      sessionId: this.sessionId,
      lastSeq,
      signed: last ? { seq: last.signed_seq, checkpointSeq: last.seq, key: last.key } : null,
      checkpoints: this.checkpoints,
      unsignedLines: lastSeq - (last?.seq ?? -1),
      index: this.checkIndex(lastSeq),
    };
  }

  private checkpoint(event: Checkpoint): void {
    const previous = this.previous;
    if (event.session_id !== this.sessionId) {
      throw this.corrupt(
        event.seq,
        `checkpoint of session ${event.session_id}, not of this session ${this.sessionId}`,
      );
    }
    if (!previous || event.signed_seq !== previous.seq || event.signed_h !== previous.h) {
      throw this.corrupt(event.seq, "checkpoint does not sign the line before it");
    }
    const key = this.trust.key;
    if (!key) {
      throw this.corrupt(
        event.seq,
        `checkpoint signed by key ${event.key}, but there is no key to check it with (no ${this.trust.keyPath}; pass --key <public key file>)`,
      );
    }
    if (event.key !== key.fingerprint) {
      throw this.corrupt(
        event.seq,
        `checkpoint signed by key ${event.key}, not by ${key.fingerprint} (${key.source})`,
      );
    }
    if (this.trust.everySignature) this.checkSignature(event);
    this.signedAt.set(event.signed_seq, event.signed_h);
    this.last = event;
    this.checkpoints++;
  }

  private checkSignature(event: Checkpoint): void {
    const key = this.trust.key;
    const message = checkpointMessage(event.session_id, event.signed_seq, event.signed_h);
    const signature = Buffer.from(event.sig, "base64");
    if (!key || !verify(null, message, key.publicKey, signature)) {
      throw this.corrupt(
        event.seq,
        `checkpoint signature does not verify with key ${event.key}: the log was changed after it was signed`,
      );
    }
  }

  /** The index's latest checkpoint of this session must be in the log, with the same hash. */
  private checkIndex(lastSeq: number): IndexCheck {
    const path = this.trust.indexPath;
    if (path === null) return { state: "not-used" };
    const record =
      this.early?.sessionId === this.sessionId
        ? this.early.record
        : latestCheckpointRecord(path, this.sessionId);
    if (record === "missing") return { state: "missing", path };
    if (record === null) return { state: "no-record", path };
    // The checkpoint line itself follows the event it signs.
    if (lastSeq <= record.seq) {
      throw this.corrupt(
        lastSeq + 1,
        `ends before its last recorded checkpoint (of seq ${record.seq}, in ${path})`,
      );
    }
    if (this.signedAt.get(record.seq) !== record.h) {
      throw this.corrupt(
        record.seq + 1,
        `does not match its last recorded checkpoint (of seq ${record.seq}, in ${path})`,
      );
    }
    return { state: "agrees", seq: record.seq, path };
  }

  /** A problem at the line of the event with this seq (lines count from 1, seq from 0). */
  private corrupt(seq: number, reason: string): SessionCorruptError {
    return new SessionCorruptError(this.path, seq + 1, reason);
  }
}

/**
 * Checks the receipts of a log already read and verified. Its index record is read now, after
 * the log: for a log another process may be writing, make the ReceiptVerifier before reading.
 */
export function checkReceipt(
  path: string,
  events: Iterable<SessionEvent>,
  trust: ReceiptTrust,
): Receipt {
  const verifier = new ReceiptVerifier(path, trust);
  for (const event of events) verifier.push(event);
  return verifier.finish();
}
