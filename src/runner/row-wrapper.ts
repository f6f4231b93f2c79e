// Rows for output that has a width (`[output] terminal_cols`, `capture --cols`, a pty): each
// line longer than the terminal is cut into the rows a terminal of that width shows. Wide (East
// Asian, emoji) characters take two cells and wrap early when one cell is left; combining marks
// take none; a tab moves to the next stop, never past the last column. The output pipeline runs
// it after redaction, so the rules always see whole lines.
import type { ByteString } from "./byte-text.ts";
import { fromByteString, toByteString } from "./byte-text.ts";

/** Streams byte strings through, cutting lines into rows; a line may span several pushes. */
export class RowWrapper {
  /** Cells used on the row the last push ended in. */
  private column = 0;

  constructor(private readonly cols: number) {}

  push(block: ByteString): ByteString {
    let out = "";
    let cursor = 0;
    let tab = block.indexOf("\t");
    for (let start = 0; start < block.length; ) {
      const newline = block.indexOf("\n", start);
      const end = newline < 0 ? block.length : newline;
      if (tab >= 0 && tab < start) tab = block.indexOf("\t", start);
      // Without a tab, a line of at most the row's free cells in bytes fits: one compare.
      // The part of a line a push ends in always goes through split, to carry its column.
      const fits =
        newline >= 0 && end - start <= this.cols - this.column && !(tab >= start && tab < end);
      if (!fits) {
        const line = block.slice(start, end);
        const ascii = !/[\u0080-\u00ff]/.test(line);
        const rows = this.split(ascii ? line : fromByteString(line));
        out += block.slice(cursor, start) + (ascii ? rows : toByteString(rows));
        cursor = end;
      }
      if (newline >= 0) this.column = 0;
      start = end + 1;
    }
    return cursor === 0 ? block : out + block.slice(cursor);
  }

  /** One line (or the part of one this push holds), continuing from the carried column. */
  private split(line: string): string {
    const cols = this.cols;
    let out = "";
    let column = this.column;
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
    this.column = column;
    return out;
  }
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
