// The session log's chain hashed on a worker thread: the writer lays each canonical body into a
// shared ring, the worker computes each line's `h` in append order and turns the body into its
// finished line in place, and the writer writes finished lines to the file (it keeps every file
// operation). Bytes are those of the in-thread writer. See the RFC "Hashing the session log's
// chain off the appending thread" and writer.ts, which starts this after many appends.
import { Worker } from "node:worker_threads";

/** A slot in the ring: the 64 bytes the previous `h` is copied into, the body, 8 bytes spare. */
const GAP = 64;
/** `,"h":"` + 64 hex digits + `"}` + newline, over the body's closing brace. */
const MEMBER = 73;
/** A body that needs more than this is hashed by the writer itself (see `push`). */
const LARGEST_SLOT = 1 << 20;
const RING_BYTES = 4 << 20;
/** Lines the ring can hold at once (a power of two). */
const LINES = 1 << 16;
/** Unwritten bytes after which finished lines are written out. */
const WRITE_AFTER = 1 << 20;
/** Unwritten bytes after which the writer waits for the worker to catch up. */
const WAIT_AFTER = 2 << 20;
/** How long a wait for the worker may take before the writer gives up on it. */
const STALL_MS = 30_000;

// Control words (Int32Array over one SharedArrayBuffer); what each thread writes often lies on
// a cache line of its own.
const HEAD = 0; // entries queued by the writer
const WAITING = 1; // 1 while the writer sleeps on DONE
const STOP = 2; // 1 when the worker should end
const DONE = 16; // entries the worker finished
const IDLE = 17; // 1 while the worker sleeps on HEAD
const FAILED = 18; // 1 when the worker's loop threw (it has ended)
const CONTROL_WORDS = 32;
/** Entries queued before the writer tells the worker: one hand-over per batch, not per line. */
const BATCH = 64;
// Entry values besides a body's length.
const WRAP = -1; // the next slot starts at byte 0
const PREVIOUS = -2; // the previous h is in the `previous` area (the writer hashed a line)

interface Shared {
  ring: SharedArrayBuffer;
  entries: SharedArrayBuffer;
  control: SharedArrayBuffer;
  previous: SharedArrayBuffer;
}

/**
 * Runs inside the worker: for each entry, copies the previous `h` into the slot's gap, hashes
 * gap and body, moves the body back over the gap and writes the `h` member over its closing
 * brace, so that finished lines lie end to end. Self-contained: it runs as eval'd code.
 */
function hashLoop(require: NodeJS.Require, shared: Shared): void {
  const { hash } = require("node:crypto") as typeof import("node:crypto");
  const ring = Buffer.from(shared.ring);
  const entries = new Int32Array(shared.entries);
  const control = new Int32Array(shared.control);
  const previous = new Uint8Array(shared.previous);
  const mask = entries.length - 1;
  const open = Buffer.from(',"h":"');
  const close = Buffer.from('"}\n');
  // [done, at: where the next slot starts, previousAt: where the previous h lies; -1: in
  // `previous`]. One call per batch, so the loop is optimised as a function, not on the stack.
  const state = [0, 0, -1];
  // In an array so that it has no name: a named inner function would be wrapped by the bundle's
  // keepNames helper, which the worker's eval'd copy of this function does not have.
  const run = [
    (head: number): void => {
      let done = state[0] as number;
      let at = state[1] as number;
      let previousAt = state[2] as number;
      while (done !== head) {
        const length = entries[done & mask] as number;
        if (length === -1) at = 0;
        else if (length === -2) previousAt = -1;
        else {
          if (previousAt < 0) ring.set(previous, at);
          else ring.copyWithin(at, previousAt, previousAt + 64);
          const h = hash("sha256", new Uint8Array(shared.ring, at, 64 + length), "hex");
          ring.copyWithin(at, at + 64, at + 63 + length);
          const member = at + length - 1;
          ring.set(open, member);
          ring.write(h, member + 6, "latin1");
          ring.set(close, member + 70);
          previousAt = member + 6;
          at = member + 73;
        }
        done = (done + 1) | 0;
        if ((done & 255) === 0) {
          Atomics.store(control, 16, done);
          if (Atomics.load(control, 1) === 1) Atomics.notify(control, 16);
        }
      }
      state[0] = done;
      state[1] = at;
      state[2] = previousAt;
      Atomics.store(control, 16, done);
      if (Atomics.load(control, 1) === 1) Atomics.notify(control, 16);
    },
  ][0] as (head: number) => void;
  for (;;) {
    const head = Atomics.load(control, 0);
    if (head !== state[0]) {
      run(head);
      continue;
    }
    if (Atomics.load(control, 2) === 1) return;
    Atomics.store(control, 17, 1);
    if (Atomics.load(control, 0) === head && Atomics.load(control, 2) === 0)
      Atomics.wait(control, 0, head);
    Atomics.store(control, 17, 0);
  }
}

const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
try {
  (${hashLoop.toString()})(require, workerData);
} catch (error) {
  const control = new Int32Array(workerData.control);
  Atomics.store(control, ${FAILED}, 1);
  Atomics.notify(control, ${DONE});
  throw error;
}
`;

/** Writes `length` bytes of `bytes` from `offset` to the log; throws on failure. */
export type LineSink = (bytes: Buffer, offset: number, length: number) => void;

/** The worker stopped (it failed, or did not answer for STALL_MS); lines queued are lost. */
export class ChainWorkerError extends Error {}

/** Receives a queued event's `h` once the worker has computed it. */
export interface HashTarget {
  h: string;
}

export class ChainPipeline {
  private readonly shared: Shared = {
    ring: new SharedArrayBuffer(RING_BYTES),
    entries: new SharedArrayBuffer(LINES * 4),
    control: new SharedArrayBuffer(CONTROL_WORDS * 4),
    previous: new SharedArrayBuffer(64),
  };
  private readonly ring = Buffer.from(this.shared.ring);
  private readonly entries = new Int32Array(this.shared.entries);
  private readonly control = new Int32Array(this.shared.control);
  /** Per entry: the byte after its finished line (for a body), and who gets its h. */
  private readonly ends = new Int32Array(LINES);
  private readonly targets: (HashTarget | null)[] = new Array(LINES).fill(null);
  private head = 0;
  /** The head the worker was last told of. */
  private told = 0;
  /** Entries whose h was handed to their target; their lines may be written. */
  private collected = 0;
  /** Entries whose lines were written to the file. */
  private written = 0;
  /** Where the next slot goes, and where the unwritten bytes start. */
  private at = 0;
  private writtenAt = 0;
  /** Where the lap before a wrap ended, while its last lines are unwritten. */
  private lapEnd = -1;
  private lastH = "";
  private stopped = false;

  /**
   * `sink` writes finished lines to the file; `fail` is handed the worker's failure and throws
   * (the writer breaks on it, as on a failed write).
   */
  constructor(
    private readonly sink: LineSink,
    private readonly fail: (error: ChainWorkerError) => never,
  ) {
    // The worker takes ~50 ms to start: the writer makes the pipeline well before it begins.
    // No execArgv: the worker runs plain CommonJS, whatever loader or input type the process
    // was started with (`--input-type=module` would make the eval'd source a module).
    const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: this.shared });
    // Its failure is seen by the next wait (FAILED); nothing more to do on the event loop.
    worker.on("error", () => {});
    worker.unref();
  }

  /** Starts queueing: the first line queued chains on from `previousH`. */
  begin(previousH: string): void {
    this.lastH = previousH;
    this.setPrevious(previousH);
  }

  /**
   * Queues one canonical body (ending in `}`) whose `h` goes to `target`. A body too large for
   * a slot is left to the caller: false, and nothing queued.
   */
  push(body: string, target: HashTarget): boolean {
    const worst = GAP + body.length * 3 + 8;
    if (worst > LARGEST_SLOT) return false;
    const unwritten =
      this.lapEnd < 0 ? this.at - this.writtenAt : this.lapEnd - this.writtenAt + this.at;
    if (unwritten >= WRITE_AFTER) this.writeOut(unwritten >= WAIT_AFTER);
    this.makeRoom(worst);
    const length = this.ring.write(body, this.at + GAP, "utf8");
    const index = this.head & (LINES - 1);
    this.entries[index] = length;
    // The finished line fills the slot: gap and body less the brace, then the h member.
    this.at += length + MEMBER - 1;
    this.ends[index] = this.at;
    this.targets[index] = target;
    this.publishHead();
    return true;
  }

  /**
   * Every queued line's `h` handed to its target, and the last one's returned; waits for the
   * worker when it has not finished them yet.
   */
  settle(): string {
    this.collect(this.head);
    return this.lastH;
  }

  /** After the caller wrote a line itself (settled first): the worker chains on from `h`. */
  chainFrom(h: string): void {
    this.lastH = h;
    this.setPrevious(h);
  }

  /** Settles and writes every finished line to the file. */
  flush(): void {
    this.writeOut(true);
  }

  /** Ends the worker (lines still queued are not written: flush first). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    Atomics.store(this.control, STOP, 1);
    Atomics.notify(this.control, HEAD);
  }

  private setPrevious(h: string): void {
    Buffer.from(this.shared.previous).write(h, 0, "latin1");
    this.queueMarker(PREVIOUS);
  }

  private queueMarker(value: number): void {
    this.makeEntry();
    const index = this.head & (LINES - 1);
    this.entries[index] = value;
    this.ends[index] = -1;
    this.targets[index] = null;
    this.publishHead();
  }

  private publishHead(): void {
    this.head = (this.head + 1) | 0;
    if (((this.head - this.told) | 0) >= BATCH) this.tell();
  }

  /** Tells the worker of every queued entry, waking it if it sleeps. */
  private tell(): void {
    if (this.told === this.head) return;
    this.told = this.head;
    Atomics.store(this.control, HEAD, this.head);
    if (Atomics.load(this.control, IDLE) === 1) Atomics.notify(this.control, HEAD);
  }

  /** A free entry for the next queued one: the oldest is written out when all are in use. */
  private makeEntry(): void {
    if (((this.head - this.written) | 0) < LINES - 1) return;
    this.writeOut(false, ((this.head - LINES + 2) | 0) as number);
  }

  /** Room for a slot of `bytes` at `at`, wrapping to the ring's start or writing out lines. */
  private makeRoom(bytes: number): void {
    this.makeEntry();
    for (;;) {
      if (this.lapEnd < 0) {
        // Unwritten bytes are [writtenAt, at); free: [at, end) and [0, writtenAt).
        if (this.at + bytes <= RING_BYTES) return;
        if (bytes < this.writtenAt) {
          this.lapEnd = this.at;
          this.at = 0;
          this.queueMarker(WRAP);
          this.makeEntry();
          continue;
        }
      } else if (this.at + bytes < this.writtenAt) return;
      // No room: write out what the worker has finished, waiting for it if it has none.
      this.writeOut(false, this.written === this.head ? this.head : (this.written + 1) | 0);
    }
  }

  /** Waits until the worker has finished entry `upTo - 1`, then hands out the h's up to it. */
  private collect(upTo: number): void {
    if (((upTo - this.collected) | 0) <= 0) return;
    this.waitFor(upTo);
    const ring = this.ring;
    for (let i = this.collected; i !== upTo; i = (i + 1) | 0) {
      const index = i & (LINES - 1);
      const end = this.ends[index] as number;
      if (end < 0) continue;
      const h = ring.toString("latin1", end - 67, end - 3);
      this.lastH = h;
      const target = this.targets[index];
      if (target) {
        target.h = h;
        this.targets[index] = null;
      }
    }
    this.collected = upTo;
  }

  private waitFor(upTo: number): void {
    const control = this.control;
    let done = Atomics.load(control, DONE);
    if (((done - upTo) | 0) >= 0) return;
    this.tell();
    const began = performance.now();
    Atomics.store(control, WAITING, 1);
    try {
      while (((done - upTo) | 0) < 0) {
        if (Atomics.load(control, FAILED) === 1)
          this.fail(new ChainWorkerError("the session log's hash worker failed"));
        if (performance.now() - began > STALL_MS)
          this.fail(
            new ChainWorkerError(
              `the session log's hash worker did not answer for ${STALL_MS / 1000} s`,
            ),
          );
        Atomics.wait(control, DONE, done, 100);
        done = Atomics.load(control, DONE);
      }
    } finally {
      Atomics.store(control, WAITING, 0);
    }
  }

  /**
   * Writes finished lines to the file in order: all queued ones (`all`), else those the worker
   * has finished, at least up to entry `atLeast - 1` when given.
   */
  private writeOut(all: boolean, atLeast?: number): void {
    let upTo = all ? this.head : Atomics.load(this.control, DONE);
    if (atLeast !== undefined && ((atLeast - upTo) | 0) > 0) upTo = atLeast;
    this.collect(upTo);
    if (upTo === this.written) return;
    const { wraps, end } = writeRange(this.entries, this.ends, this.written, upTo);
    if (wraps && this.lapEnd >= 0) {
      if (this.lapEnd > this.writtenAt)
        this.sink(this.ring, this.writtenAt, this.lapEnd - this.writtenAt);
      this.lapEnd = -1;
      this.writtenAt = 0;
    }
    if (end > this.writtenAt) {
      this.sink(this.ring, this.writtenAt, end - this.writtenAt);
      this.writtenAt = end;
    }
    this.written = upTo;
  }
}

/**
 * What writing entries [from, upTo) involves: whether they cross a wrap, and the byte after the
 * last line of the lap they end in (-1: none; lines before a wrap end where that lap ended).
 */
export function writeRange(
  entries: Int32Array,
  ends: Int32Array,
  from: number,
  upTo: number,
): { wraps: boolean; end: number } {
  const mask = entries.length - 1;
  let end = -1;
  let wraps = false;
  for (let i = from; i !== upTo; i = (i + 1) | 0) {
    const index = i & mask;
    if (entries[index] === WRAP) {
      wraps = true;
      end = -1;
    }
    const e = ends[index] as number;
    if (e >= 0) end = e;
  }
  return { wraps, end };
}
