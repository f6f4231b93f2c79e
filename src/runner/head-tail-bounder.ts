// Stage 4 of the output policy: bounded head+tail capture in constant memory. Keeps everything
// until the budget is passed, then the first half of the budget and a ring of the last half;
// cuts at line boundaries when that keeps at least half of each part, never inside UTF-8.
import type { ByteString } from "./byte-text.ts";

/** The kept parts of a stream that went over budget. */
export interface BoundedParts {
  head: ByteString;
  tail: ByteString;
  /** Bytes and newlines between head and tail that were left out. */
  omittedBytes: number;
  omittedLines: number;
}

export class HeadTailBounder {
  private readonly headBudget: number;
  private readonly tailBudget: number;
  private totalBytes = 0;
  private newlines = 0;
  /** Everything so far, while still within budget; null once over. */
  private whole: ByteString[] | null = [];
  private head: ByteString = "";
  private ring: ByteString[] = [];
  private ringBytes = 0;

  constructor(readonly maxBytes: number) {
    this.headBudget = Math.floor(maxBytes / 2);
    this.tailBudget = maxBytes - this.headBudget;
  }

  /** Bytes pushed so far. */
  get bytes(): number {
    return this.totalBytes;
  }

  get truncated(): boolean {
    return this.whole === null;
  }

  /** Lines seen: newlines, plus one for a last line without one. */
  lines(lastChar: string): number {
    return this.newlines + (this.totalBytes > 0 && lastChar !== "\n" ? 1 : 0);
  }

  /** Adds text; returns everything so far at the moment the budget is first passed. */
  push(text: ByteString): ByteString | null {
    this.totalBytes += text.length;
    this.newlines += countNewlines(text);
    if (this.whole === null) {
      this.addToRing(text);
      return null;
    }
    this.whole.push(text);
    if (this.totalBytes <= this.maxBytes) return null;
    const all = this.whole.join("");
    this.whole = null;
    this.head = cutHead(all, this.headBudget);
    this.addToRing(all.slice(this.headBudget));
    return all;
  }

  /** The complete text when within budget, else null. */
  complete(): ByteString | null {
    return this.whole === null ? null : this.whole.join("");
  }

  parts(): BoundedParts {
    const tail = cutTail(this.ring.join("").slice(-(this.tailBudget + 1)), this.tailBudget);
    const keptLines = countNewlines(this.head) + countNewlines(tail);
    return {
      head: this.head,
      tail,
      omittedBytes: this.totalBytes - this.head.length - tail.length,
      omittedLines: Math.max(0, this.newlines - keptLines),
    };
  }

  private addToRing(text: ByteString): void {
    this.ring.push(text);
    this.ringBytes += text.length;
    while (this.ring.length > 1 && this.ringBytes - this.ring[0]!.length > this.tailBudget) {
      this.ringBytes -= this.ring.shift()!.length;
    }
  }
}

const isContinuation = (text: string, at: number) => (text.charCodeAt(at) & 0xc0) === 0x80;

/** The first `budget` bytes of `all`, ending at a newline or at least on a character edge. */
export function cutHead(all: ByteString, budget: number): ByteString {
  const newline = all.lastIndexOf("\n", budget - 1);
  if (newline >= 0 && newline + 1 >= budget / 2) return all.slice(0, newline + 1);
  let cut = budget;
  while (cut > 0 && isContinuation(all, cut)) cut--;
  return all.slice(0, cut);
}

/** The last `budget` bytes of `last` (given one byte more), from a line start or a character. */
export function cutTail(last: ByteString, budget: number): ByteString {
  if (last.length > budget && last[0] === "\n") return last.slice(1);
  let start = last.length > budget ? 1 : 0;
  while (start < last.length && isContinuation(last, start)) start++;
  const newline = last.indexOf("\n", start);
  if (newline >= 0 && newline < last.length - 1 && last.length - newline - 1 >= budget / 2) {
    return last.slice(newline + 1);
  }
  return last.slice(start);
}

export function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
  return count;
}
