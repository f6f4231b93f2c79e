// The input editor: pi-tui's Editor, whose large-paste markers (`[paste #1 +2400 lines]`, kept
// in the text so the paste expands on submit) are shown as `[pasted 2,400 lines]`. Display
// only: the label is padded to the marker's width, so wrapping and the cursor stay where the
// editor put them. Made by app.ts.
import { Editor } from "@mariozechner/pi-tui";

const MARKER = /\[paste #\d+ (?:\+(\d+) lines|(\d+) chars)\]/g;

/** One rendered line with each paste marker relabelled, its width unchanged. */
export function relabelPastes(line: string): string {
  return line.replace(MARKER, (whole, lines: string | undefined, chars: string | undefined) => {
    const count = Number(lines ?? chars).toLocaleString("en-US");
    const label = `[pasted ${count} ${lines === undefined ? "chars" : "lines"}]`;
    return label.length <= whole.length ? label.padEnd(whole.length) : whole;
  });
}

export class InputEditor extends Editor {
  override render(width: number): string[] {
    return super
      .render(width)
      .map((line) => (line.includes("[paste #") ? relabelPastes(line) : line));
  }
}
