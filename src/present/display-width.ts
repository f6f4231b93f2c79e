// The columns a string takes on a terminal, for the tables the CLI prints (`sessions list`):
// East Asian wide and fullwidth characters and emoji take two, combining marks, joiners and
// variation selectors none, everything else one. Per code point (an emoji ZWJ sequence
// counts each of its pictographs), which is what a table of titles and paths needs.
import { eastAsianWidth } from "get-east-asian-width";

/** Combining marks (variation selectors among them) and format characters (joiners, marks). */
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
const EMOJI = /\p{Extended_Pictographic}/u;

function codePointWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x7f) return code < 0x20 ? 0 : 1;
  if (code !== 0xad && ZERO_WIDTH.test(char)) return 0;
  if (code >= 0x1f000 && EMOJI.test(char)) return 2;
  return eastAsianWidth(code);
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
