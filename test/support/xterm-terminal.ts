// An in-process terminal for the interactive UI's tests: pi-tui's `Terminal` drawn on an
// @xterm/headless screen, keys fed as the bytes a terminal sends (tmux's key names), split into
// sequences by pi-tui's own StdinBuffer as the process's terminal does. No raw mode, signals,
// resize or tty modes: the tests that need those run the CLI in tmux (test/support/tmux.ts).
import type { Terminal } from "@mariozechner/pi-tui";
import { StdinBuffer } from "@mariozechner/pi-tui";
import xterm from "@xterm/headless";

/** The bytes a terminal sends for the tmux key names the tests use. */
const KEYS: Record<string, string> = {
  Enter: "\r",
  Escape: "\x1b",
  Tab: "\t",
  BTab: "\x1b[Z",
  BSpace: "\x7f",
  Up: "\x1b[A",
  Down: "\x1b[B",
  Right: "\x1b[C",
  Left: "\x1b[D",
  Home: "\x1b[H",
  End: "\x1b[F",
  PPage: "\x1b[5~",
  NPage: "\x1b[6~",
  "M-Up": "\x1b[1;3A",
  "M-Down": "\x1b[1;3B",
};

function keyBytes(name: string): string {
  const known = KEYS[name];
  if (known !== undefined) return known;
  const control = /^C-([a-z])$/.exec(name);
  if (control) return String.fromCharCode(control[1]!.charCodeAt(0) - 96);
  if (name.length === 1) return name;
  throw new Error(`no bytes for the key ${name}`);
}

export interface XtermTerminal extends Terminal {
  /** Types literal text (no Enter). */
  type(text: string): void;
  /** Sends tmux key names: "Enter", "Escape", "C-c", "BTab", "M-Up". */
  keys(...names: string[]): void;
  /** The visible screen, trailing blanks trimmed (as `tmux capture-pane -p`). */
  screen(): string;
  /** Every byte written to the terminal so far. */
  raw(): string;
}

export function xtermTerminal(columns = 100, rows = 30): XtermTerminal {
  const screen = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true });
  let written = "";
  let input: ((data: string) => void) | undefined;
  const buffer = new StdinBuffer({ timeout: 10 });
  buffer.on("data", (sequence) => input?.(sequence));
  buffer.on("paste", (content) => input?.(`\x1b[200~${content}\x1b[201~`));
  // Keys arrive as a terminal's do: in a later turn of the event loop, in the order sent.
  const send = (data: string) => setImmediate(() => buffer.process(data));
  const write = (data: string) => {
    written += data;
    screen.write(data);
  };
  return {
    start(onInput) {
      input = onInput;
      write("\x1b[?2004h");
    },
    stop() {
      write("\x1b[?2004l");
      input = undefined;
      buffer.destroy();
    },
    drainInput: async () => undefined,
    write,
    get columns() {
      return screen.cols;
    },
    get rows() {
      return screen.rows;
    },
    kittyProtocolActive: false,
    moveBy: (lines) => {
      if (lines > 0) write(`\x1b[${lines}B`);
      else if (lines < 0) write(`\x1b[${-lines}A`);
    },
    hideCursor: () => write("\x1b[?25l"),
    showCursor: () => write("\x1b[?25h"),
    clearLine: () => write("\x1b[K"),
    clearFromCursor: () => write("\x1b[J"),
    clearScreen: () => write("\x1b[2J\x1b[H"),
    setTitle: (title) => write(`\x1b]0;${title}\x07`),
    setProgress: () => undefined,
    type: send,
    keys: (...names) => {
      for (const name of names) send(keyBytes(name));
    },
    screen() {
      const active = screen.buffer.active;
      const lines: string[] = [];
      for (let row = 0; row < screen.rows; row++) {
        lines.push(
          (active.getLine(active.viewportY + row)?.translateToString(true) ?? "").trimEnd(),
        );
      }
      return lines.join("\n").trimEnd();
    },
    raw: () => written,
  };
}
