// The one writer of a session log. Assigns seq, ts and the chained hash, group-commits lines in
// order, and syncs to disk before returning from every append the durability contract names
// (see docs/session-format.md). Publishes each appended event, in order, to one listener.
// Streamed deltas that arrive together are recorded as one chunk (chunk-coalescer.ts). A failed
// write never leaves a torn line behind it. A session the agent opens has no file until its
// first `user/message`: header, prompt and anything between are written and synced together,
// into a new file linked into place, so no log on disk lacks the prompt that started it.
// With a signer, every `turn/end` and the close are followed by a signed `session/checkpoint`.

import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  constants as fsConstants,
  fstatSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { SessionWriteError } from "../errors.ts";
import { canonicalJson } from "./canonical-json.ts";
import type { CheckpointSigner } from "./checkpoint.ts";
import { ChunkCoalescer, type DeltaInput } from "./chunk-coalescer.ts";
import {
  type EventInput,
  type EventType,
  type Payload,
  SESSION_SCHEMA_VERSION,
  type SessionEvent,
  SYNC_EVENT_TYPES,
} from "./events.ts";
import { chainHash, formatLine } from "./hash-chain.ts";
import { acquireWriterLock } from "./lock.ts";
import { isSessionId, newSessionId, sessionIdOfPath, sessionPath } from "./paths.ts";
import { type ReadSummary, SessionReader } from "./reader.ts";

export interface WriterOptions {
  /** Receives every appended event, in append order, after seq and h are set. */
  publish?: (event: SessionEvent) => void;
  /** Longest time an appended event may stay unsynced (default 100 ms). */
  syncIntervalMs?: number;
  /** Signs a checkpoint after every `turn/end` and at close (see checkpoint.ts). */
  signer?: CheckpointSigner;
  /**
   * A new session's id, made ahead with `newSessionId()` (a surface that shows it before the
   * log is open); a fresh one by default. Anything but a session id is a programmer error.
   */
  id?: string;
  /**
   * For `resume`: how far the caller verified the log before taking the lock, and its last
   * event's type. When the log still ends exactly there (its size, and the last line's `h`),
   * it is not read again.
   */
  verified?: { summary: ReadSummary; lastType: EventType };
  /**
   * A new log's file appears only with its first `user/message` (see `create`); every session
   * the agent opens is created so. Without it the file is created with the header.
   */
  holdUntilPrompt?: boolean;
}

const WRITE_THRESHOLD_BYTES = 1 << 20;
const NEW_LOG_FLAGS =
  fsConstants.O_WRONLY |
  fsConstants.O_APPEND |
  fsConstants.O_CREAT |
  fsConstants.O_EXCL |
  fsConstants.O_NOFOLLOW;
/** `,"h":"` + 64 hex digits + `"}` + newline. */
const H_MEMBER_BYTES = 6 + 64 + 3;

let lastMs = 0;
let lastIso = "";
/** The current time as ISO-8601, formatted once per millisecond. */
function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}

/**
 * Appends whole lines. When a write fails after part of them reached the file (a full disk
 * takes what fits), the file is cut back to the end of the last complete line, so the log
 * stays valid; then the failure is thrown.
 */
function writeAll(fd: number, bytes: Buffer, start = 0, end = bytes.length): void {
  let offset = start;
  try {
    while (offset < end) offset += writeSync(fd, bytes, offset, end - offset);
  } catch (error) {
    if (offset > start) cutTornLine(fd, bytes.subarray(start, offset));
    throw error;
  }
}

/** Truncates the bytes after the last newline of `written`, the tail of an append-only file. */
function cutTornLine(fd: number, written: Buffer): void {
  const torn = written.length - (written.lastIndexOf(0x0a) + 1);
  // Truncating needs no free space; if it fails too, resuming cuts the torn line.
  if (torn > 0) bestEffort(() => ftruncateSync(fd, fstatSync(fd).size - torn));
}

/** The error of finding something (a file, a link, anything) at `path`, or null. */
function existingAt(path: string): Error | null {
  try {
    lstatSync(path);
  } catch {
    return null;
  }
  return Object.assign(new Error(`EEXIST: file already exists, open '${path}'`), {
    code: "EEXIST",
  });
}

/** Runs a cleanup step whose failure must not hide the error being reported. */
function bestEffort(step: () => void): void {
  try {
    step();
  } catch {
    // The caller is already reporting the failure that matters.
  }
}

export class SessionWriter {
  private nextSeq: number;
  private lastHash: string;
  private lastType: EventType | null;
  /** Encoded lines not yet written to the file, and their length in UTF-16 code units. */
  private pending: string[] = [];
  private pendingLength = 0;
  private unsynced = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly deliveryQueue: SessionEvent[] = [];
  private delivering = false;
  private closed = false;
  /** Set by the first failed write or sync; every later append, sync and close throws it. */
  private broken: SessionWriteError | null = null;
  private readonly chunks = new ChunkCoalescer((chunk) => this.record(chunk));
  /** A `user/message` has been appended: a new log's file is created at the next sync. */
  private prompted = false;

  private constructor(
    readonly id: string,
    readonly path: string,
    /** The open log; null while a new log waits for its first prompt (see create). */
    private fd: number | null,
    private readonly releaseLock: () => void,
    private readonly options: WriterOptions,
    position: { nextSeq: number; lastHash: string; lastType: EventType | null },
  ) {
    this.nextSeq = position.nextSeq;
    this.lastHash = position.lastHash;
    this.lastType = position.lastType;
  }

  /**
   * Starts a new session log with its `session/start`. With `holdUntilPrompt` the file does
   * not exist until the first `user/message`: that append writes the header, every event
   * before it and the prompt to a new file (`.<id>.jsonl.new` beside the log), syncs it and links it to the
   * log's path, so a crash leaves either no log or one that starts with its prompt. Until
   * then every event is held in memory (and published as usual); a session closed before its
   * first prompt leaves no log, and what it held (a title, a model switch) is dropped.
   */
  static create(
    sessionsDir: string,
    start: Omit<Payload<"session/start">, "session_id">,
    options: WriterOptions = {},
  ): SessionWriter {
    if (options.id !== undefined && !isSessionId(options.id))
      throw new Error(`not a session id: ${options.id}`);
    const id = options.id ?? newSessionId();
    const path = sessionPath(sessionsDir, id);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const release = acquireWriterLock(path, id);
    // A new log only: never through a file or link already at its path (its id may have been
    // shown before the log was opened, see WriterOptions.id); the link at the first prompt
    // refuses one planted later.
    let fd: number | null = null;
    try {
      const planted = options.holdUntilPrompt ? existingAt(path) : null;
      if (planted) throw planted;
      if (!options.holdUntilPrompt) fd = openSync(path, NEW_LOG_FLAGS, 0o600);
    } catch (error) {
      release();
      throw new SessionWriteError(path, error);
    }
    const writer = new SessionWriter(id, path, fd, release, options, {
      nextSeq: 0,
      lastHash: "",
      lastType: null,
    });
    try {
      writer.append({ type: "session/start", session_id: id, ...start });
    } catch (error) {
      writer.abandon();
      throw error;
    }
    return writer;
  }

  /**
   * Reopens an existing log for appending: verifies it, cuts a torn last line and records
   * `session/recovered`. Returns the writer and what the read found.
   */
  static resume(
    path: string,
    options: WriterOptions = {},
  ): { writer: SessionWriter; summary: ReadSummary } {
    const release = acquireWriterLock(path, sessionIdOfPath(path));
    return SessionWriter.resumeLocked(path, release, options);
  }

  /**
   * `resume` for a caller that already holds the writer lock (`sessions repair`, which cuts a
   * damaged tail under it): the writer takes over `release`, and calls it on close or failure.
   */
  static resumeLocked(
    path: string,
    release: () => void,
    options: WriterOptions = {},
  ): { writer: SessionWriter; summary: ReadSummary } {
    const id = sessionIdOfPath(path);
    try {
      const { summary, lastType } = endsAsVerified(path, options.verified) ?? readToEnd(path);
      const fd = openSync(path, "r+");
      ftruncateSync(fd, summary.validBytes);
      closeSync(fd);
      const appendFd = openSync(path, "a");
      const position = { nextSeq: summary.lastSeq + 1, lastHash: summary.lastHash, lastType };
      const writer = new SessionWriter(id, path, appendFd, release, options, position);
      if (summary.missingNewline) writer.writeRaw("\n");
      if (summary.torn)
        writer.append({ type: "session/recovered", dropped_bytes: summary.torn.bytes });
      return { writer, summary };
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * Appends one streamed delta. Deltas of one block handed over before the event loop turns
   * are recorded together as one `assistant/chunk`, at the latest when the loop turns or just
   * before the next `append`, so the log keeps arrival order.
   */
  appendDelta(delta: DeltaInput): void {
    this.checkWritable();
    this.chunks.push(delta);
  }

  /**
   * Records the deltas kept so far now, as `append` does first, so a live signal sent next
   * (the agent's `tool/input-start`) reaches listeners after them.
   */
  sealDeltas(): void {
    this.checkWritable();
    this.chunks.seal();
  }

  /** Appends one event; durable before returning when its type is in SYNC_EVENT_TYPES. */
  append(input: EventInput): SessionEvent {
    this.checkWritable();
    this.chunks.seal();
    return this.record(input);
  }

  /**
   * Encodes one event; after a `turn/end` also its checkpoint, so one sync covers both. The
   * index records the checkpoint only once it is on disk, never ahead of the log.
   */
  private record(input: EventInput): SessionEvent {
    const event = this.encode(input);
    const signer = this.options.signer;
    const checkpoint = signer && input.type === "turn/end" ? this.encodeCheckpoint(signer) : null;
    if (SYNC_EVENT_TYPES.has(input.type)) this.sync();
    if (this.unsynced) this.scheduleSync();
    if (checkpoint) this.recordCheckpoint(checkpoint);
    this.deliver(event, checkpoint);
    return event;
  }

  private encode(input: EventInput): SessionEvent {
    const seq = this.nextSeq;
    const event = { v: SESSION_SCHEMA_VERSION, seq, ts: isoNow(), ...input };
    const body = canonicalJson(event);
    const h = chainHash(this.lastHash, body);
    this.enqueue(`${formatLine(body, h)}\n`);
    this.lastHash = h;
    this.nextSeq = seq + 1;
    this.lastType = input.type;
    if (input.type === "user/message") this.prompted = true;
    this.unsynced = true;
    return { ...event, h } as SessionEvent;
  }

  /** Encodes the checkpoint that signs the last encoded event. */
  private encodeCheckpoint(signer: CheckpointSigner): SessionEvent {
    return this.encode(signer.checkpoint(this.id, this.nextSeq - 1, this.lastHash));
  }

  /** Records a synced checkpoint in the index. */
  private recordCheckpoint(checkpoint: SessionEvent): void {
    // Not before the log is on disk: a new log's checkpoints before its prompt are not synced.
    if (checkpoint.type !== "session/checkpoint" || this.fd === null) return;
    this.options.signer?.recorded(this.id, checkpoint.signed_seq, checkpoint.signed_h);
  }

  /** The seq the next `append` will get (kept deltas are recorded first). */
  get seq(): number {
    this.chunks.seal();
    return this.nextSeq;
  }

  /**
   * Writes pending lines to the file and syncs them to disk; a new log waiting for its first
   * prompt stays in memory (see create).
   */
  sync(): void {
    this.checkWritable();
    this.chunks.seal();
    this.syncOpen(this.prompted);
  }

  /** `sync`, creating a new log's file first when `create` says so. */
  private syncOpen(create: boolean): void {
    const fd = this.fd ?? (create ? this.createFile() : null);
    if (fd === null) return;
    this.flush();
    if (!this.unsynced) return;
    this.io(() => fdatasyncSync(fd));
    this.unsynced = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Signs what no checkpoint covers yet, syncs and closes; throws a write failure that no
   * append reported yet, after closing.
   */
  close(): void {
    if (this.closed) return;
    // No prompt yet: the session never started, and leaves no log (what it held is dropped).
    const started = this.fd !== null || this.prompted;
    try {
      if (!this.broken && started) this.closingCheckpoint();
      if (!this.broken && started) this.syncOpen(true);
    } finally {
      this.closed = true;
      if (this.timer) clearTimeout(this.timer);
      this.closeFile();
      this.releaseLock();
    }
    if (this.broken) throw this.broken;
  }

  /** At close, a checkpoint after the last event unless that is one already. */
  private closingCheckpoint(): void {
    const signer = this.options.signer;
    this.chunks.seal();
    if (!signer || this.lastType === "session/checkpoint" || this.lastType === null) return;
    const checkpoint = this.encodeCheckpoint(signer);
    this.syncOpen(true);
    this.recordCheckpoint(checkpoint);
    this.deliver(checkpoint);
  }

  /**
   * Creates a new log's file with everything pending: written to a new file beside the log,
   * synced, then linked to the log's path (which fails if anything is there by now) and the
   * temporary name removed. On failure nothing is left at either path.
   */
  private createFile(): number {
    const temp = join(dirname(this.path), `.${this.id}.jsonl.new`);
    let fd: number | null = null;
    try {
      fd = openSync(temp, NEW_LOG_FLAGS, 0o600);
      const bytes = Buffer.from(this.pending.join(""), "utf8");
      writeAll(fd, bytes);
      fdatasyncSync(fd);
      linkSync(temp, this.path);
    } catch (error) {
      const opened = fd;
      if (opened !== null) bestEffort(() => closeSync(opened));
      bestEffort(() => unlinkSync(temp));
      return this.breakWith(error);
    }
    bestEffort(() => unlinkSync(temp));
    this.pending = [];
    this.pendingLength = 0;
    this.unsynced = false;
    this.fd = fd;
    return fd;
  }

  /**
   * After a failed first append: closes the file, removes it while it is still empty (a
   * session that never started leaves nothing to trip over) and releases the lock.
   */
  private abandon(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const fd = this.fd;
    if (fd !== null) {
      bestEffort(() => {
        if (fstatSync(fd).size === 0) unlinkSync(this.path);
      });
      bestEffort(() => closeSync(fd));
    }
    this.releaseLock();
  }

  /** Closes the file; after a failed write, a failing close adds nothing to report. */
  private closeFile(): void {
    if (this.fd === null) return;
    try {
      closeSync(this.fd);
    } catch (error) {
      if (!this.broken) throw new SessionWriteError(this.path, error);
    }
  }

  private checkWritable(): void {
    if (this.broken) throw this.broken;
    if (this.closed) throw new Error(`session ${this.id} is closed`);
  }

  /** Runs one file operation; its failure breaks the writer (see `broken`). */
  private io(operation: () => void): void {
    try {
      operation();
    } catch (error) {
      this.breakWith(error);
    }
  }

  /** Breaks the writer on its first failure (see `broken`) and throws it. */
  private breakWith(error: unknown): never {
    this.broken ??= new SessionWriteError(this.path, error);
    throw this.broken;
  }

  /** Queues one line, writing what is queued first when it reaches WRITE_THRESHOLD_BYTES. */
  private enqueue(line: string): void {
    this.pending.push(line);
    this.pendingLength += line.length;
    if (this.pendingLength >= WRITE_THRESHOLD_BYTES) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0 || this.fd === null) return;
    const fd = this.fd;
    const bytes = Buffer.from(this.pending.join(""), "utf8");
    this.pending = [];
    this.pendingLength = 0;
    this.io(() => writeAll(fd, bytes));
  }

  /** Writes text past the pending lines (which the caller flushed) of a resumed log. */
  private writeRaw(text: string): void {
    const fd = this.fd;
    if (fd !== null) this.io(() => writeAll(fd, Buffer.from(text, "utf8")));
  }

  private scheduleSync(): void {
    if (this.timer) return;
    const interval = this.options.syncIntervalMs ?? 100;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.closed) this.syncInBackground();
    }, interval);
    this.timer.unref();
  }

  /**
   * The periodic sync: writes what is pending and syncs it on libuv's thread pool, so the
   * stream is not stalled for the milliseconds an fdatasync takes. A failure here is not
   * lost: the next synced append or close syncs again, synchronously, and reports it; a
   * failed write breaks the writer, and the next call throws it.
   */
  private syncInBackground(): void {
    const fd = this.fd;
    if (this.broken || fd === null) return;
    try {
      this.flush();
    } catch {
      return; // `broken` holds it; the next append, sync or close throws it.
    }
    if (!this.unsynced) return;
    this.unsynced = false;
    fdatasync(fd, (error) => {
      if (error && !this.closed) this.unsynced = true;
    });
  }

  /**
   * Publishes in append order: an append made by a listener is delivered after this one (and
   * after `then`, the checkpoint appended with it).
   */
  private deliver(event: SessionEvent, then: SessionEvent | null = null): void {
    this.deliveryQueue.push(event);
    if (then) this.deliveryQueue.push(then);
    this.publishQueued();
  }

  /** Publishes the queue unless a publish is under way (which then reaches these too). */
  private publishQueued(): void {
    const publish = this.options.publish;
    if (!publish) {
      this.deliveryQueue.length = 0;
      return;
    }
    if (this.delivering) return;
    this.delivering = true;
    let failure: unknown;
    for (let next = this.deliveryQueue.shift(); next; next = this.deliveryQueue.shift()) {
      try {
        publish(next);
      } catch (error) {
        failure ??= error;
      }
    }
    this.delivering = false;
    if (failure !== undefined) throw failure;
  }
}

/** Reads and verifies the whole log (events are not kept). */
function readToEnd(path: string): { summary: ReadSummary; lastType: EventType | null } {
  const reader = new SessionReader(path);
  let lastType: EventType | null = null;
  for (const event of reader.events()) lastType = event.type;
  return { summary: reader.summary, lastType };
}

/**
 * The caller's verified summary, when the log (now locked) still ends exactly where it did:
 * complete lines only, the same size, and the same `h` on its last line; else null.
 */
function endsAsVerified(
  path: string,
  verified: WriterOptions["verified"],
): { summary: ReadSummary; lastType: EventType } | null {
  if (!verified) return null;
  const { summary } = verified;
  if (summary.torn || summary.missingNewline || summary.validBytes < H_MEMBER_BYTES) return null;
  const fd = openSync(path, "r");
  try {
    if (fstatSync(fd).size !== summary.validBytes) return null;
    const tail = Buffer.alloc(H_MEMBER_BYTES);
    readSync(fd, tail, 0, tail.length, summary.validBytes - tail.length);
    return tail.toString("latin1") === `,"h":"${summary.lastHash}"}\n` ? verified : null;
  } finally {
    closeSync(fd);
  }
}
