// Benchmark baseline for bench/session-log.ts: the chunk coalescer of b6032e7 (2026-11-30),
// whole, over today's events.ts. Not used by codewhale (src/).
// Streamed deltas that arrive together become one `assistant/chunk`: consecutive deltas of one
// block, handed over before the event loop turns (one burst read from the network), are kept
// and recorded as one event whose `parts` give each delta's length, so every delta survives.

import type { EventOf } from "../../../src/session/events.ts";

type Chunk = EventOf<"assistant/chunk">;
/** One streamed delta as the writer receives it. */
export type DeltaInput = Pick<Chunk, "turn" | "step" | "block" | "kind" | "delta">;
type ChunkInput = DeltaInput & Pick<Chunk, "type" | "parts">;

/** At most this many deltas share one chunk event. */
export const MAX_CHUNK_PARTS = 256;
/** A chunk event is sealed once its text reaches this many UTF-16 code units. */
export const MAX_CHUNK_CHARS = 16_384;

export class ChunkCoalescer {
  private head: DeltaInput | null = null;
  private texts: string[] = [];
  private chars = 0;
  private scheduled = false;
  /** A failure of a seal made on a later turn of the event loop, thrown at the next call. */
  private failure: { error: unknown } | null = null;
  private readonly sealLater = () => {
    this.scheduled = false;
    try {
      this.seal();
    } catch (error) {
      this.failure ??= { error };
    }
  };

  constructor(private readonly record: (chunk: ChunkInput) => void) {}

  /** Keeps one delta; seals what is kept first when the delta belongs to another block. */
  push(delta: DeltaInput): void {
    this.throwFailure();
    const head = this.head;
    if (head && !sameBlock(head, delta)) this.seal();
    if (!this.head) this.head = delta;
    this.texts.push(delta.delta);
    this.chars += delta.delta.length;
    if (this.texts.length >= MAX_CHUNK_PARTS || this.chars >= MAX_CHUNK_CHARS) this.seal();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.sealLater);
    }
  }

  /** Records the kept deltas now, as one chunk event (nothing when none are kept). */
  seal(): void {
    this.throwFailure();
    const head = this.head;
    if (!head) return;
    const texts = this.texts;
    this.head = null;
    this.texts = [];
    this.chars = 0;
    const { turn, step, block, kind } = head;
    if (texts.length === 1) {
      this.record({ type: "assistant/chunk", turn, step, block, kind, delta: head.delta });
      return;
    }
    const parts = texts.map((text) => text.length);
    this.record({ type: "assistant/chunk", turn, step, block, kind, delta: texts.join(""), parts });
  }

  private throwFailure(): void {
    const failure = this.failure;
    if (!failure) return;
    this.failure = null;
    throw failure.error;
  }
}

function sameBlock(a: DeltaInput, b: DeltaInput): boolean {
  return a.block === b.block && a.kind === b.kind && a.step === b.step && a.turn === b.turn;
}
