// A minimal vim layer over the input editor (`[display] editor_mode = "vim"`, `/vim`): insert
// mode is the editor as it is; Esc enters normal mode, where h j k l w b 0 $ move, x and dd
// delete, i a A o go back to insert, and other keys (Enter, arrows, Ctrl-…) reach the editor.
// `normalKey` is the pure part (a buffer and a key in, the buffer out); `VimMode` keeps the mode
// and applies it to the editor (or to any object with the four methods of `VimEditor`). Used by input-editor.ts, for which pi-tui has no modal editing.
import { decodeKittyPrintable, matchesKey } from "@mariozechner/pi-tui";

type VimModeName = "insert" | "normal";

interface Buffer {
  lines: string[];
  line: number;
  col: number;
}

/** What a normal-mode key did: the buffer after it, and the mode it leaves the editor in. */
interface NormalResult {
  buffer: Buffer;
  mode: VimModeName;
  /** `d` waits for its motion (only `dd` is known). */
  pending?: "d";
}

/** What the layer needs of the editor. */
interface VimEditor {
  getLines(): string[];
  getCursor(): { line: number; col: number };
  setText(text: string): void;
  moveCursorTo(line: number, col: number): void;
}

/** Vim's word classes: 0 blank, 1 letters, digits and `_`, 2 any other character. */
function charClass(char: string | undefined): 0 | 1 | 2 {
  if (char === undefined || /\s/.test(char)) return 0;
  return /\w/.test(char) ? 1 : 2;
}

const lastCol = (text: string) => Math.max(0, text.length - 1);

/** `w`: the start of the next word, across lines (an empty line is a word); else the end. */
function nextWord({ lines, line, col }: Buffer): { line: number; col: number } {
  let row = line;
  let at = col;
  const start = charClass(lines[row]?.[at]);
  while (start !== 0 && at < (lines[row] ?? "").length && charClass(lines[row]?.[at]) === start)
    at++;
  for (;;) {
    const text = lines[row] ?? "";
    while (at < text.length && charClass(text[at]) === 0) at++;
    if (at < text.length) return { line: row, col: at };
    if (row + 1 >= lines.length) return { line: row, col: lastCol(text) };
    row++;
    at = 0;
    if ((lines[row] ?? "") === "") return { line: row, col: 0 };
  }
}

/** `b`: the start of this or the previous word, across lines (an empty line is a word). */
function previousWord({ lines, line, col }: Buffer): { line: number; col: number } {
  let row = line;
  let at = col - 1;
  for (;;) {
    const text = lines[row] ?? "";
    while (at >= 0 && charClass(text[at]) === 0) at--;
    if (at >= 0) break;
    if (row === 0) return { line: 0, col: 0 };
    row--;
    at = (lines[row] ?? "").length - 1;
    if (at < 0) return { line: row, col: 0 };
  }
  const text = lines[row] ?? "";
  const cls = charClass(text[at]);
  while (at > 0 && charClass(text[at - 1]) === cls) at--;
  return { line: row, col: at };
}

/** The buffer after one normal-mode key, or undefined for a key normal mode does not know. */
function normalKey(buffer: Buffer, key: string, pending?: "d"): NormalResult | undefined {
  const { lines, line, col } = buffer;
  const text = lines[line] ?? "";
  const at = (row: number, column: number): Buffer => ({ lines, line: row, col: column });
  const normal = (next: Buffer): NormalResult => ({ buffer: next, mode: "normal" });
  const insert = (next: Buffer): NormalResult => ({ buffer: next, mode: "insert" });
  const vertical = (row: number) => at(row, Math.min(col, lastCol(lines[row] ?? "")));
  if (pending === "d") {
    if (key !== "d") return normal(buffer);
    const rest = lines.length > 1 ? lines.filter((_, index) => index !== line) : [""];
    const row = Math.min(line, rest.length - 1);
    const first = (rest[row] ?? "").search(/\S/);
    return normal({ lines: rest, line: row, col: Math.max(0, first) });
  }
  switch (key) {
    case "h":
      return normal(at(line, Math.max(0, col - 1)));
    case "l":
      return normal(at(line, Math.min(lastCol(text), col + 1)));
    case "j":
      return normal(line + 1 < lines.length ? vertical(line + 1) : buffer);
    case "k":
      return normal(line > 0 ? vertical(line - 1) : buffer);
    case "0":
      return normal(at(line, 0));
    case "$":
      return normal(at(line, lastCol(text)));
    case "w": {
      const next = nextWord(buffer);
      return normal(at(next.line, next.col));
    }
    case "b": {
      const previous = previousWord(buffer);
      return normal(at(previous.line, previous.col));
    }
    case "x": {
      if (text === "") return normal(buffer);
      const changed = [...lines];
      changed[line] = text.slice(0, col) + text.slice(col + 1);
      return normal({ lines: changed, line, col: Math.min(col, lastCol(changed[line] ?? "")) });
    }
    case "d":
      return { buffer, mode: "normal", pending: "d" };
    case "i":
      return insert(buffer);
    case "a":
      return insert(at(line, Math.min(text.length, col + 1)));
    case "A":
      return insert(at(line, text.length));
    case "o": {
      const changed = [...lines.slice(0, line + 1), "", ...lines.slice(line + 1)];
      return insert({ lines: changed, line: line + 1, col: 0 });
    }
    default:
      return undefined;
  }
}

/** A printable key's character (also from the kitty keyboard protocol), else undefined. */
function printable(data: string): string | undefined {
  const kitty = decodeKittyPrintable(data);
  if (kitty !== undefined) return kitty;
  return data.length === 1 && data >= " " && data !== "\x7f" ? data : undefined;
}

/** The mode and the pending operator of one editor, applying normal-mode keys to it. */
export class VimMode {
  mode: VimModeName = "insert";
  private pending: "d" | undefined;

  constructor(private readonly editor: VimEditor) {}

  /** Whether the layer took the key; otherwise the editor handles it as usual. */
  handle(data: string, autocompleteShowing: boolean): boolean {
    if (matchesKey(data, "escape")) {
      if (this.mode === "insert" && !autocompleteShowing) {
        this.mode = "normal";
        const { line, col } = this.editor.getCursor();
        this.editor.moveCursorTo(line, Math.max(0, col - 1));
        return true;
      }
      const wasPending = this.pending !== undefined;
      this.pending = undefined;
      return wasPending;
    }
    if (this.mode === "insert") return false;
    const key = printable(data);
    if (key === undefined) return false;
    const lines = this.editor.getLines();
    const before = { lines, ...this.editor.getCursor() };
    const result = normalKey(before, key, this.pending);
    this.pending = result?.pending;
    if (!result) return true;
    this.mode = result.mode;
    const { buffer } = result;
    if (buffer.lines !== lines) this.editor.setText(buffer.lines.join("\n"));
    this.editor.moveCursorTo(buffer.line, buffer.col);
    return true;
  }
}
