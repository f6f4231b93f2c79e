// A virtual terminal for unit tests of the terminal UI's renderers: @xterm/headless at a given
// size. `show(lines)` writes rendered lines as the screen would receive them (one per row)
// and `rows()` reads back each row's text as the terminal laid it out, so wide characters,
// wrapping and colours are checked as a terminal sees them, not by counting string lengths.
import xterm from "@xterm/headless";

export interface VirtualScreen {
  /** Writes each line followed by CRLF; resolves once xterm has parsed it. */
  show(lines: readonly string[]): Promise<void>;
  /** The text of every row written so far (scrollback included), trailing blanks trimmed. */
  rows(): string[];
  /** The foreground palette colour of the first cell of the row containing `text`. */
  colorOf(text: string): number | undefined;
  /** The cursor's row in the buffer: one past the last line written when nothing wrapped. */
  cursorRow(): number;
}

export function virtualScreen(columns: number, rows = 50): VirtualScreen {
  const terminal = new xterm.Terminal({
    cols: columns,
    rows,
    scrollback: 1000,
    allowProposedApi: true,
  });
  const buffer = () => terminal.buffer.active;
  const rowText = (index: number) =>
    (buffer().getLine(index)?.translateToString(true) ?? "").trimEnd();
  const written = () => buffer().baseY + buffer().cursorY;
  return {
    show: (lines) =>
      new Promise((resolve) =>
        terminal.write(lines.map((line) => `${line}\r\n`).join(""), resolve),
      ),
    rows: () => Array.from({ length: written() }, (_, index) => rowText(index)),
    colorOf(text) {
      for (let index = 0; index < written(); index++) {
        const row = rowText(index);
        const at = row.indexOf(text);
        if (at < 0) continue;
        const cell = buffer().getLine(index)?.getCell(at);
        return cell?.isFgPalette() ? cell.getFgColor() : undefined;
      }
      return undefined;
    },
    cursorRow: written,
  };
}
