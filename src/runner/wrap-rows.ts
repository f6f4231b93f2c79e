// Wrapping for the fast path when the output has a width (a pty, `capture --cols`, or
// `[output] terminal_cols`): each line longer than the terminal is cut into the rows a terminal
// of that width shows, as the emulator path does. Wide (East Asian, emoji) characters take two
// cells and wrap early when one cell is left; combining marks take none. Called by control-stripper.ts.
import type { ByteString } from "./byte-text.ts";
import { fromByteString, toByteString } from "./byte-text.ts";

/** Cuts every line of `block` (a byte string) longer than `cols` cells into rows. */
export function wrapRows(block: ByteString, cols: number): ByteString {
  let out = "";
  let cursor = 0;
  let tab = block.indexOf("\t");
  for (let start = 0; start < block.length; ) {
    const newline = block.indexOf("\n", start);
    const end = newline < 0 ? block.length : newline;
    if (tab >= 0 && tab < start) tab = block.indexOf("\t", start);
    // Without a tab, a line of at most `cols` bytes has at most `cols` cells: the common case
    // costs one compare.
    if (end - start > cols || (tab >= start && tab < end)) {
      const line = block.slice(start, end);
      const ascii = !/[\u0080-\u00ff]/.test(line);
      const rows = splitLine(ascii ? line : fromByteString(line), cols);
      out += block.slice(cursor, start) + (ascii ? rows : toByteString(rows));
      cursor = end;
    }
    start = end + 1;
  }
  return cursor === 0 ? block : out + block.slice(cursor);
}

function splitLine(line: string, cols: number): string {
  let out = "";
  let column = 0;
  for (const char of line) {
    const code = char.codePointAt(0)!;
    if (code === 0x09) {
      out += char;
      column = Math.min(cols - 1, (Math.floor(column / 8) + 1) * 8);
      continue;
    }
    const width = cellWidth(code);
    if (column + width > cols) {
      out += "\n";
      column = 0;
    }
    out += char;
    column += width;
  }
  return out;
}

/** Cells a code point takes (Unicode East Asian Wide/Fullwidth and emoji: 2; combining: 0). */
export function cellWidth(code: number): number {
  if (code < 0x300) return 1;
  if ((code >= 0x300 && code <= 0x36f) || (code >= 0x200b && code <= 0x200f)) return 0;
  if (code >= 0xfe00 && code <= 0xfe0f) return 0;
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}
