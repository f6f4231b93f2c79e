// Benchmark baseline for bench/session-log.ts: the session log writer of b6032e7 (2026-11-30,
// before checkpoints), minus `resume` and the reader import. Not used by codewhale (src/).
// The one writer of a session log. Assigns seq, ts and the chained hash, group-commits lines in
// order, and syncs to disk before returning from every append the durability contract names
// (see docs/session-format.md). Publishes each appended event, in order, to one listener.
// Streamed deltas that arrive together are recorded as one chunk (chunk-coalescer.ts). A failed
// write never leaves a torn line behind it, and a session whose first write fails leaves no file.

import { hash } from "node:crypto";
import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { SessionWriteError } from "../../../src/errors.ts";
import {
  type EventInput,
  type Payload,
  type SessionEvent,
  SYNC_EVENT_TYPES,
} from "../../../src/session/events.ts";
import { acquireWriterLock } from "../../../src/session/lock.ts";
import { newSessionId, sessionPath } from "../../../src/session/paths.ts";
import { ChunkCoalescer, type DeltaInput } from "./chunk-coalescer.ts";
import { draftAndBody } from "./event-serializer.ts";
import { chainHash, formatLine } from "./hash-chain.ts";

export interface WriterOptions {
  /** Receives every appended event, in append order, after seq and h are set. */
  publish?: (event: SessionEvent) => void;
  /** Longest time an appended event may stay unsynced (default 100 ms). */
  syncIntervalMs?: number;
}

const WRITE_THRESHOLD_BYTES = 1 << 20;
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
function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  try {
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
  } catch (error) {
    if (offset > 0) cutTornLine(fd, bytes.subarray(0, offset));
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
  /** Encoded lines not yet written to the file. */
  private readonly pending = Buffer.allocUnsafe(WRITE_THRESHOLD_BYTES);
  private pendingBytes = 0;
  /** Where the last line's h sits in the pending buffer; -1 once that line was written out. */
  private lastHAt = -1;
  private unsynced = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly deliveryQueue: SessionEvent[] = [];
  private delivering = false;
  private closed = false;
  /** Set by the first failed write or sync; every later append, sync and close throws it. */
  private broken: SessionWriteError | null = null;
  private readonly chunks = new ChunkCoalescer((chunk) => this.record(chunk));

  private constructor(
    readonly id: string,
    readonly path: string,
    private readonly fd: number,
    private readonly releaseLock: () => void,
    private readonly options: WriterOptions,
    position: { nextSeq: number; lastHash: string },
  ) {
    this.nextSeq = position.nextSeq;
    this.lastHash = position.lastHash;
  }

  /** Starts a new session log and appends its `session/start`. */
  static create(
    sessionsDir: string,
    start: Omit<Payload<"session/start">, "session_id">,
    options: WriterOptions = {},
  ): SessionWriter {
    const id = newSessionId();
    const path = sessionPath(sessionsDir, id);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const release = acquireWriterLock(path, id);
    let fd: number;
    try {
      fd = openSync(path, "a", 0o600);
    } catch (error) {
      release();
      throw error;
    }
    const writer = new SessionWriter(id, path, fd, release, options, { nextSeq: 0, lastHash: "" });
    try {
      writer.append({ type: "session/start", session_id: id, ...start });
    } catch (error) {
      writer.abandon();
      throw error;
    }
    return writer;
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

  /** Appends one event; durable before returning when its type is in SYNC_EVENT_TYPES. */
  append(input: EventInput): SessionEvent {
    this.checkWritable();
    this.chunks.seal();
    return this.record(input);
  }

  private record(input: EventInput): SessionEvent {
    const seq = this.nextSeq;
    const { draft, body } = draftAndBody(input, seq, isoNow());
    const h = this.enqueue(body);

    this.nextSeq = seq + 1;
    this.lastHash = h;
    this.unsynced = true;
    if (SYNC_EVENT_TYPES.has(input.type)) this.sync();
    if (this.unsynced) this.scheduleSync();
    draft.h = h;
    const event = draft as unknown as SessionEvent;
    this.deliver(event);
    return event;
  }

  /** The seq the next `append` will get (kept deltas are recorded first). */
  get seq(): number {
    this.chunks.seal();
    return this.nextSeq;
  }

  /** Writes pending lines to the file and syncs them to disk. */
  sync(): void {
    this.checkWritable();
    this.chunks.seal();
    this.flush();
    if (!this.unsynced) return;
    this.io(() => fdatasyncSync(this.fd));
    this.unsynced = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Syncs and closes; throws a write failure that no append reported yet, after closing. */
  close(): void {
    if (this.closed) return;
    try {
      if (!this.broken) this.sync();
    } finally {
      this.closed = true;
      if (this.timer) clearTimeout(this.timer);
      this.closeFile();
      this.releaseLock();
    }
    if (this.broken) throw this.broken;
  }

  /**
   * After a failed first append: closes the file, removes it while it is still empty (a
   * session that never started leaves nothing to trip over) and releases the lock.
   */
  private abandon(): void {
    this.closed = true;
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
      this.broken ??= new SessionWriteError(this.path, error);
      throw this.broken;
    }
  }

  /**
   * Hashes a canonical body onto the chain and encodes its line into the pending buffer,
   * writing the buffer out first when the line might not fit; returns the line's `h`. The
   * hash input (previous `h`, then the body) is laid out where the line goes, hashed there,
   * and the body moved into place, so no line-sized string is built per event.
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
    const buffer = this.pending;
    const start = this.pendingBytes;
    const skip = this.putPrevious(start);
    const length = buffer.write(body, start + skip);
    const h = hash("sha256", buffer.subarray(start, start + skip + length), "hex");
    if (skip > 0) buffer.copyWithin(start, start + skip, start + skip + length);
    // The body's closing brace gives way to the h member.
    let at = start + length - 1;
    buffer.set(H_OPEN, at);
    at += H_OPEN.length;
    this.lastHAt = at;
    at += buffer.write(h, at);
    buffer.set(H_CLOSE, at);
    at += H_CLOSE.length;
    this.pendingBytes = at;
    return h;
  }

  /** Puts the previous h at `start`, copied from the line before when it is still buffered. */
  private putPrevious(start: number): number {
    if (this.lastHAt < 0) return this.pending.write(this.lastHash, start);
    this.pending.copyWithin(start, this.lastHAt, this.lastHAt + 64);
    return 64;
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    this.io(() => writeAll(this.fd, this.pending.subarray(0, this.pendingBytes)));
    this.pendingBytes = 0;
    this.lastHAt = -1;
  }

  /** Writes text past the pending buffer (after flushing it); the last h is then not in it. */
  private writeRaw(text: string): void {
    this.io(() => writeAll(this.fd, Buffer.from(text, "utf8")));
    this.lastHAt = -1;
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

  /** Publishes in append order: an append made by a listener is delivered after this one. */
  private deliver(event: SessionEvent): void {
    const publish = this.options.publish;
    if (!publish) return;
    if (this.delivering) {
      this.deliveryQueue.push(event);
      return;
    }
    this.delivering = true;
    let failure: unknown;
    for (let next: SessionEvent | undefined = event; next; next = this.deliveryQueue.shift()) {
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
