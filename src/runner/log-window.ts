// Bounded reads of a growing log that already holds policy-processed text (a background
// command's): of the bytes since the last read it reads only what the budget can keep, the
// whole range when it fits, else its head and its tail cut at lines, however large the range
// (a 700 MB or 5 GiB log costs two small reads). Called by background.ts for `bash_output`.
import { open } from "node:fs/promises";
import { fromByteString } from "./byte-text.ts";
import { cutHead, cutTail } from "./head-tail-bounder.ts";
import { unreadMarker } from "./marker.ts";

/** While the command runs, a last line without its newline is held back up to this length. */
const MAX_HELD_BYTES = 64 * 1024;

export interface LogWindow {
  /** What the model sees: the new text, or its head, a marker and its tail. */
  output: string;
  /** New bytes in the log since the last read (up to `end`). */
  newBytes: number;
  /** Bytes of the new text that were not read. */
  omittedBytes: number;
  truncated: boolean;
  /** Where the next read starts. */
  end: number;
  path: string;
}

export interface LogRange {
  start: number;
  /** The bytes known to be written; the read never goes past it. */
  end: number;
  maxBytes: number;
  /** Stop at the last newline (the command still runs, a line may be half written). */
  wholeLines: boolean;
}

export async function readLogWindow(path: string, range: LogRange): Promise<LogWindow> {
  const empty = { output: "", newBytes: 0, omittedBytes: 0, truncated: false, path };
  if (range.end <= range.start) return { ...empty, end: range.start };
  const handle = await open(path, "r");
  try {
    const read = async (from: number, length: number): Promise<string> => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, from);
      return buffer.toString("latin1", 0, bytesRead);
    };
    const end = range.wholeLines ? await lineEnd(read, range) : range.end;
    if (end <= range.start) return { ...empty, end: range.start };
    const newBytes = end - range.start;
    const budget = Math.max(1, range.maxBytes);
    if (newBytes <= budget) {
      const output = fromByteString(await read(range.start, newBytes));
      return { ...empty, output, newBytes, end };
    }
    const headBudget = Math.floor(budget / 2);
    const tailBudget = budget - headBudget;
    // One byte more on each side lets the cuts see whether they fall on a line edge.
    const head = headBudget > 0 ? cutHead(await read(range.start, headBudget + 1), headBudget) : "";
    const tail = cutTail(await read(end - tailBudget - 1, tailBudget + 1), tailBudget);
    const omittedBytes = newBytes - head.length - tail.length;
    const marker = unreadMarker({
      newBytes,
      omittedBytes,
      path,
      from: range.start + head.length,
      to: end - tail.length,
      afterNewline: head.length === 0 || head.endsWith("\n"),
    });
    const output = fromByteString(head) + marker + fromByteString(tail);
    return { output, newBytes, omittedBytes, truncated: true, end, path };
  } finally {
    await handle.close();
  }
}

/** The end of the last whole line in the range, or its end when that line is too long to hold. */
async function lineEnd(
  read: (from: number, length: number) => Promise<string>,
  range: LogRange,
): Promise<number> {
  const length = Math.min(MAX_HELD_BYTES, range.end - range.start);
  const last = await read(range.end - length, length);
  const newline = last.lastIndexOf("\n");
  if (newline >= 0) return range.end - length + newline + 1;
  return length >= MAX_HELD_BYTES ? range.end : range.start;
}
