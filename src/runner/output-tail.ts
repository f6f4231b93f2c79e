// The newest few KiB of a command's processed output (stripped, redacted, cut into rows), kept
// while it runs so a surface can show its last lines live: the pipeline (output-pipeline.ts)
// pushes each block it has redacted, and reads `with(…)` when it reports progress. Cut at a line
// start, so no line or UTF-8 sequence is shown in part.
import type { ByteString } from "./byte-text.ts";
import { fromByteString } from "./byte-text.ts";

/** How much of the newest output a progress report carries. */
export const TAIL_BYTES = 4 * 1024;

export class OutputTail {
  private bytes: ByteString = "";

  constructor(private readonly maxBytes = TAIL_BYTES) {}

  push(text: ByteString): void {
    if (text.length === 0) return;
    const joined = text.length >= this.maxBytes ? text : this.bytes + text;
    this.bytes = joined.length > this.maxBytes ? cutToLine(joined, this.maxBytes) : joined;
  }

  /** The tail, with `more` (processed lines not pushed yet) after it, as text. */
  with(more: ByteString = ""): string {
    const joined = this.bytes + more;
    return fromByteString(
      joined.length > this.maxBytes ? cutToLine(joined, this.maxBytes) : joined,
    );
  }
}

/** The last `max` bytes of `text`, from the first line start in them (or a char start). */
function cutToLine(text: ByteString, max: number): ByteString {
  const last = text.slice(text.length - max);
  const newline = last.indexOf("\n");
  if (newline >= 0 && newline < last.length - 1) return last.slice(newline + 1);
  // One line longer than the tail: start at a UTF-8 lead byte, never inside a sequence.
  let start = 0;
  while (start < last.length && (last.charCodeAt(start) & 0xc0) === 0x80) start++;
  return last.slice(start);
}
