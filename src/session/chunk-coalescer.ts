// Streamed deltas that arrive together become one `assistant/chunk`: consecutive deltas of one
// block, handed over before the event loop turns (one burst read from the network), are kept
// and recorded as one event whose `parts` give each delta's length, so every delta survives.

import type { EventOf } from "./events.ts";

type Chunk = EventOf<"assistant/chunk">;
type CompactionChunk = EventOf<"compaction/chunk">;
/** One streamed delta of a step as the writer receives it. */
export type StepDeltaInput = Pick<Chunk, "turn" | "step" | "block" | "kind" | "delta">;
/** One streamed delta of a summarising request (`compaction: true`). */
export type CompactionDeltaInput = Pick<CompactionChunk, "block" | "kind" | "delta"> & {
  compaction: true;
};
export type DeltaInput = StepDeltaInput | CompactionDeltaInput;
type ChunkInput =
  | Pick<Chunk, "type" | "turn" | "step" | "block" | "kind" | "delta" | "parts">
  | Pick<CompactionChunk, "type" | "block" | "kind" | "delta" | "parts">;

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
    const { block, kind } = head;
    const joined =
      texts.length === 1
        ? { delta: head.delta }
        : { delta: texts.join(""), parts: texts.map((text) => text.length) };
    if ("compaction" in head) this.record({ type: "compaction/chunk", block, kind, ...joined });
    else
      this.record({
        type: "assistant/chunk",
        turn: head.turn,
        step: head.step,
        block,
        kind,
        ...joined,
      });
  }

  private throwFailure(): void {
    const failure = this.failure;
    if (!failure) return;
    this.failure = null;
    throw failure.error;
  }
}

function sameBlock(a: DeltaInput, b: DeltaInput): boolean {
  if (a.block !== b.block || a.kind !== b.kind) return false;
  if ("compaction" in a || "compaction" in b) return "compaction" in a && "compaction" in b;
  return a.step === b.step && a.turn === b.turn;
}
