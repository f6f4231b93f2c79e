// The columns a string takes on a terminal, for the tables the CLI prints (`sessions list`),
// counted per code point with the runner's cell widths (runner/row-wrapper.ts: East Asian
// wide and emoji take two, combining marks none), the same the output policy wraps rows by.
import { cellWidth } from "../runner/index.ts";

function codePointWidth(char: string): number {
  return cellWidth(char.codePointAt(0) ?? 0);
}

/** The columns `text` takes (text without control characters: escape them first). */
export function displayWidth(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const char of text) width += codePointWidth(char);
  return width;
}

/** `text` cut to at most `width` columns, ending in "…" when it was cut. */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let used = 0;
  let out = "";
  for (const char of text) {
    const w = codePointWidth(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/** `text` padded with spaces to `width` columns, at the end or (`start`) the beginning. */
export function padToWidth(text: string, width: number, start = false): string {
  const pad = " ".repeat(Math.max(0, width - displayWidth(text)));
  return start ? pad + text : text + pad;
}
