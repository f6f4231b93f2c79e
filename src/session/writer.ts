// The one writer of a session log. Assigns seq, ts and the chained hash, group-commits lines in
// order, and syncs to disk before returning from every append the durability contract names
// (see docs/session-format.md). Publishes each appended event, in order, to one listener.
// Streamed deltas that arrive together are recorded as one chunk (chunk-coalescer.ts). A failed
// write never leaves a torn line behind it, and a session whose first write fails leaves no file.
// With a signer, every `turn/end` and the close are followed by a signed `session/checkpoint`.
// After many appends the chain is hashed on a worker thread (chain-pipeline.ts).

import { hash } from "node:crypto";
import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  constants as fsConstants,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { SessionWriteError } from "../errors.ts";
import { ChainPipeline } from "./chain-pipeline.ts";
import type { CheckpointSigner } from "./checkpoint.ts";
import { ChunkCoalescer, type DeltaInput } from "./chunk-coalescer.ts";
import { draftAndBody } from "./event-serializer.ts";
import {
  type EventInput,
  type EventType,
  type Payload,
  type SessionEvent,
  STREAMED_EVENT_TYPES,
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
   * Appends after which the chain is hashed on a worker thread (default 10,000; Infinity:
   * never). From then on a streamed chunk is published at the latest on the next turn of the
   * event loop; every other event still before its append returns.
   */
  chainWorkerAfter?: number;
}

/**
 * The default threshold; `CODEWHALE_CHAIN_WORKER_AFTER` (a whole number, `Infinity`: never)
 * overrides it for a process, as the tests do to run whole sessions through the worker.
 */
const CHAIN_WORKER_AFTER = thresholdFrom(process.env.CODEWHALE_CHAIN_WORKER_AFTER) ?? 10_000;

function thresholdFrom(value: string | undefined): number | null {
  if (value === "Infinity") return Number.POSITIVE_INFINITY;
  return value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : null;
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
// Copied in as bytes: cheaper than encoding the same short strings on every line.
const H_OPEN = Buffer.from(',"h":"');
const H_CLOSE = Buffer.from('"}\n');

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
  /** Encoded lines not yet written to the file. */
  private readonly pending = Buffer.allocUnsafe(WRITE_THRESHOLD_BYTES);
  private pendingBytes = 0;
  private unsynced = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly deliveryQueue: SessionEvent[] = [];
  private delivering = false;
  private closed = false;
  /** Set by the first failed write or sync; every later append, sync and close throws it. */
  private broken: SessionWriteError | null = null;
  private readonly chunks = new ChunkCoalescer((chunk) => this.record(chunk));
  /** Hashes and lays out lines on a worker once `appends` passes chainWorkerAfter. */
  private pipeline: ChainPipeline | null = null;
  /** The pipeline made halfway to the threshold, its worker starting. */
  private standby: ChainPipeline | null = null;
  private appends = 0;
  /** Streamed chunks appended while the pipeline runs, not yet published. */
  private readonly undelivered: SessionEvent[] = [];
  private deliveryScheduled = false;
  /** A listener's failure while publishing late; the next append, sync or close throws it. */
  private lateFailure: { error: unknown } | null = null;

  private constructor(
    readonly id: string,
    readonly path: string,
    private readonly fd: number,
    private readonly releaseLock: () => void,
    private readonly options: WriterOptions,
    position: { nextSeq: number; lastHash: string; lastType: EventType | null },
  ) {
    this.nextSeq = position.nextSeq;
    this.lastHash = position.lastHash;
    this.lastType = position.lastType;
  }

  /** Starts a new session log and appends its `session/start`. */
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
    let fd: number;
    try {
      // A new log only: never through a file or link already at its path (its id may have
      // been shown before the log was opened, see WriterOptions.id).
      fd = openSync(path, NEW_LOG_FLAGS, 0o600);
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
    this.throwLateFailure();
    this.chunks.push(delta);
  }

  /** Appends one event; durable before returning when its type is in SYNC_EVENT_TYPES. */
  append(input: EventInput): SessionEvent {
    this.checkWritable();
    this.throwLateFailure();
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
    const { draft, body } = draftAndBody(input, seq, isoNow());
    if (this.pipeline === null && ++this.appends > this.workerAfter() / 2) this.startPipeline();
    const pipeline = this.pipeline;
    const target = draft as { h: string };
    // On the worker, `h` is set once it is computed (lastHash is then the pipeline's to know).
    if (!pipeline) this.lastHash = target.h = this.enqueue(body);
    else if (!pipeline.push(body, target)) this.writeOwnLine(pipeline, body, target);
    this.nextSeq = seq + 1;
    this.lastType = input.type;
    this.unsynced = true;
    return draft as unknown as SessionEvent;
  }

  /** Encodes the checkpoint that signs the last encoded event. */
  private encodeCheckpoint(signer: CheckpointSigner): SessionEvent {
    const h = this.pipeline ? this.pipeline.settle() : this.lastHash;
    return this.encode(signer.checkpoint(this.id, this.nextSeq - 1, h));
  }

  private workerAfter(): number {
    return this.options.chainWorkerAfter ?? CHAIN_WORKER_AFTER;
  }

  /**
   * Halfway to the threshold, starts the worker (it boots meanwhile, off this thread); at the
   * threshold, hands it the chain: what is pending is written first, so the order holds.
   */
  private startPipeline(): void {
    if (this.standby === null) {
      const sink = (bytes: Buffer, start: number, length: number) =>
        this.io(() => writeAll(this.fd, bytes, start, start + length));
      this.standby = new ChainPipeline(sink, (error) => this.breakWith(error));
    }
    // The first line has no previous h to chain from.
    if (this.appends <= this.workerAfter() || this.lastHash === "") return;
    this.flush();
    this.standby.begin(this.lastHash);
    this.pipeline = this.standby;
  }

  /** A body too large for the pipeline's ring: hashed and written here, after what it holds. */
  private writeOwnLine(pipeline: ChainPipeline, body: string, target: { h: string }): void {
    pipeline.flush();
    const h = chainHash(pipeline.settle(), body);
    this.writeRaw(`${formatLine(body, h)}\n`);
    pipeline.chainFrom(h);
    target.h = h;
  }

  /** Records a synced checkpoint in the index. */
  private recordCheckpoint(checkpoint: SessionEvent): void {
    if (checkpoint.type !== "session/checkpoint") return;
    this.options.signer?.recorded(this.id, checkpoint.signed_seq, checkpoint.signed_h);
  }

  /** The seq the next `append` will get (kept deltas are recorded first). */
  get seq(): number {
    this.chunks.seal();
    return this.nextSeq;
  }

  /** Writes pending lines to the file and syncs them to disk. */
  sync(): void {
    this.checkWritable();
    this.throwLateFailure();
    this.chunks.seal();
    this.flush();
    if (!this.unsynced) return;
    this.io(() => fdatasyncSync(this.fd));
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
    try {
      if (!this.broken) this.closingCheckpoint();
      if (!this.broken) this.sync();
      if (!this.broken) this.deliverLate();
    } finally {
      this.closed = true;
      this.standby?.stop();
      if (this.timer) clearTimeout(this.timer);
      this.closeFile();
      this.releaseLock();
    }
    if (this.broken) throw this.broken;
    this.throwLateFailure();
  }

  /** At close, a checkpoint after the last event unless that is one already. */
  private closingCheckpoint(): void {
    const signer = this.options.signer;
    this.chunks.seal();
    if (!signer || this.lastType === "session/checkpoint" || this.lastType === null) return;
    const checkpoint = this.encodeCheckpoint(signer);
    this.sync();
    this.recordCheckpoint(checkpoint);
    this.deliver(checkpoint);
  }

  /**
   * After a failed first append: closes the file, removes it while it is still empty (a
   * session that never started leaves nothing to trip over) and releases the lock.
   */
  private abandon(): void {
    this.closed = true;
    this.standby?.stop();
    if (this.timer) clearTimeout(this.timer);
    bestEffort(() => {
      if (fstatSync(this.fd).size === 0) unlinkSync(this.path);
    });
    bestEffort(() => closeSync(this.fd));
    this.releaseLock();
  }

  /** Closes the file; after a failed write, a failing close adds nothing to report. */
  private closeFile(): void {
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

  /**
   * Hashes a canonical body onto the chain and encodes its line into the pending buffer,
   * writing the buffer out first when the line might not fit; returns the line's `h`. The
   * hash input (previous `h`, then the body) is one string, made flat once by the hash and
   * then encoded where the line goes; the body is moved over the previous h, and its closing
   * brace gives way to the h member. Every other way costs a second flattening of the body.
   */
  private enqueue(body: string): string {
    const previous = this.lastHash;
    // A UTF-8 encoding takes at most 3 bytes per UTF-16 code unit; h members are ASCII.
    const worst = previous.length + body.length * 3 + H_MEMBER_BYTES;
    if (this.pendingBytes + worst > this.pending.length) {
      this.flush();
      if (worst > this.pending.length) {
        const h = chainHash(previous, body);
        this.writeRaw(`${formatLine(body, h)}\n`);
        return h;
      }
    }
    const input = previous + body;
    const h = hash("sha256", input, "hex");
    const buffer = this.pending;
    const start = this.pendingBytes;
    // The previous h is hex, one byte per character.
    const skip = previous.length;
    const length = buffer.write(input, start, "utf8") - skip;
    if (skip > 0) buffer.copyWithin(start, start + skip, start + skip + length);
    let at = start + length - 1;
    buffer.set(H_OPEN, at);
    at += buffer.write(h, at + H_OPEN.length, "latin1") + H_OPEN.length;
    buffer.set(H_CLOSE, at);
    this.pendingBytes = at + H_CLOSE.length;
    return h;
  }

  private flush(): void {
    this.pipeline?.flush();
    if (this.pendingBytes === 0) return;
    this.io(() => writeAll(this.fd, this.pending, 0, this.pendingBytes));
    this.pendingBytes = 0;
  }

  /** Writes text past the pending buffer and the pipeline (which the caller flushed). */
  private writeRaw(text: string): void {
    this.io(() => writeAll(this.fd, Buffer.from(text, "utf8")));
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
    if (this.broken) return;
    try {
      this.flush();
    } catch {
      return; // `broken` holds it; the next append, sync or close throws it.
    }
    if (!this.unsynced) return;
    this.unsynced = false;
    fdatasync(this.fd, (error) => {
      if (error && !this.closed) this.unsynced = true;
    });
  }

  /**
   * Publishes in append order: an append made by a listener is delivered after this one (and
   * after `then`, the checkpoint appended with it). While the pipeline runs, a streamed chunk
   * waits for its h (deliverLater); any other event first publishes the chunks before it.
   */
  private deliver(event: SessionEvent, then: SessionEvent | null = null): void {
    const pipeline = this.pipeline;
    if (pipeline) {
      if (then === null && STREAMED_EVENT_TYPES.has(event.type)) {
        if (this.options.publish) this.deliverLater(event);
        return;
      }
      pipeline.settle();
      if (this.undelivered.length > 0) this.deliveryQueue.push(...this.undelivered.splice(0));
    }
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

  /** Holds a streamed chunk back until the worker has its h: at the latest the next turn. */
  private deliverLater(event: SessionEvent): void {
    this.undelivered.push(event);
    if (this.deliveryScheduled) return;
    this.deliveryScheduled = true;
    setImmediate(() => {
      this.deliveryScheduled = false;
      if (this.broken || this.closed) return;
      try {
        this.deliverLate();
      } catch (error) {
        this.lateFailure ??= { error };
      }
    });
  }

  /** Publishes the streamed chunks still held back, with their h. */
  private deliverLate(): void {
    if (this.undelivered.length === 0) return;
    this.pipeline?.settle();
    this.deliveryQueue.push(...this.undelivered.splice(0));
    this.publishQueued();
  }

  private throwLateFailure(): void {
    const failure = this.lateFailure;
    if (!failure) return;
    this.lateFailure = null;
    throw failure.error;
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
