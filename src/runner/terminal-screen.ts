// The emulator path of control-sequence hygiene: a headless xterm (@xterm/headless, loaded on
// first need by loadTerminalEmulator) sized like the terminal the output was meant for. A row
// that scrolls off the screen can no longer change, so it leaves as text at once: memory stays
// at the screen plus one small scrollback however long the stream. control-stripper.ts switches
// a stream here once it moves the cursor, erases the display, sets a scroll region or switches screens.
import { createRequire } from "node:module";
import type { IBufferLine, IMarker, Terminal } from "@xterm/headless";

/** The terminal a stream is rendered in. */
export interface TerminalSize {
  /**
   * Columns; 0 means no wrap (a pipe). Either way the rows the emulator wraps come out joined
   * into one line: the pipeline cuts lines into rows after redaction (row-wrapper.ts), so a
   * secret is never split between two rows before the rules see it.
   */
  cols: number;
  rows: number;
  /**
   * The bytes came from a pty (`\n` moves down only, as the pty's output processing already
   * turned each newline into `\r\n`). From a pipe, `\n` starts a new line, as `cat` shows it.
   */
  pty?: boolean;
}

/** The emulator's width when the stream has no width of its own (see TerminalSize.cols). */
export const NO_WRAP_COLUMNS = 200;
/**
 * Rows kept above the screen before they are read out. Each char of input adds at most one row,
 * so writing at most this many chars between reads never drops a row unread.
 */
const SCROLLBACK = 1024;
const PIECE = SCROLLBACK;

/** A CSI sequence whose cost in xterm grows with a parameter: a count to clamp. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
const COSTLY_CSI = /\x1b\[[0-9;:?<=>]*(?:\d{5}|[0-9;:?<=>][STLMb])/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
const CSI = /\x1b\[([0-9;:?<=>]*)([\x20-\x2f]*[\x40-\x7e])/g;
/** A CSI sequence cut off at the end of a write: kept for the next one, to be clamped whole. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
const OPEN_CSI = /\x1b(?:\[[0-9;:?<=>]*)?$/;
/** No parameter a program needs is larger (the DEC private modes are four digits). */
const MAX_PARAMETER = 9999;

type TerminalClass = typeof Terminal;
let terminalClass: TerminalClass | null = null;

/** Loads @xterm/headless once; exec start-up and streams without cursor moves never pay for it. */
export async function loadTerminalEmulator(): Promise<void> {
  if (terminalClass) return;
  // Required, not imported: the bundle runs as a vm script (bin/codewhale.cjs), where a dynamic
  // import() cannot load a module; the bundle has `require`, source run by tsx does not.
  const load = typeof require === "function" ? require : createRequire(import.meta.url);
  const module = load("@xterm/headless") as { Terminal: unknown; default?: { Terminal?: unknown } };
  terminalClass = (module.default?.Terminal ?? module.Terminal) as TerminalClass;
}

export function terminalEmulatorLoaded(): boolean {
  return terminalClass !== null;
}

/** xterm's synchronous write: the pipeline's stripping stage is synchronous. */
interface SyncCore {
  _core: { writeSync(data: string): void };
}

/** One stream rendered in a headless terminal; finished rows come out as text lines. */
export class TerminalScreen {
  private readonly terminal: Terminal;
  private readonly pty: boolean;
  /** The first row of the normal buffer not yet read out (moves as xterm trims scrollback). */
  private marker: IMarker | undefined;
  /** Whether a row has been read out, so the next unwrapped row starts with a newline. */
  private started = false;
  private readonly rows: number;
  private readonly cols: number;
  /** The start of a CSI sequence the last write ended in. */
  private open = "";

  constructor(size: TerminalSize) {
    if (!terminalClass) throw new Error("loadTerminalEmulator() must finish first");
    this.pty = size.pty === true;
    this.cols = size.cols <= 0 ? NO_WRAP_COLUMNS : Math.max(2, size.cols);
    this.rows = Math.max(1, size.rows);
    this.terminal = new terminalClass({
      cols: this.cols,
      rows: this.rows,
      scrollback: SCROLLBACK,
      allowProposedApi: true,
      logLevel: "off",
      // As tmux and most terminals do: a full-screen clear keeps what it cleared in scrollback.
      scrollOnEraseInDisplay: true,
    });
  }

  /** Feeds text (a JS string) and returns the rows that scrolled off, newline-separated. */
  write(text: string): string {
    let data = this.open + (this.pty ? text : text.replaceAll("\n", "\r\n"));
    const open = OPEN_CSI.exec(data);
    this.open = open ? open[0] : "";
    if (open) data = data.slice(0, open.index);
    if (COSTLY_CSI.test(data))
      data = data.replace(CSI, (sequence, params, final) => this.clamp(sequence, params, final));
    const core = this.terminal as unknown as SyncCore;
    let out = "";
    for (let at = 0; at < data.length; at += PIECE) {
      core._core.writeSync(data.slice(at, at + PIECE));
      out += this.readScrolled();
    }
    return out;
  }

  /**
   * Scrolls, line inserts and deletes cost xterm a loop per line and a repeat writes its char
   * that many times; past the screen's size (or 9999 for anything else) they change nothing more.
   */
  private clamp(sequence: string, params: string, final: string): string {
    const limit = final === "b" ? this.cols : "STLM".includes(final) ? this.rows : MAX_PARAMETER;
    if (!/\d/.test(params)) return sequence;
    const clamped = params.replace(/\d+/g, (n) => (Number(n) > limit ? String(limit) : n));
    return clamped === params ? sequence : `\x1b[${clamped}${final}`;
  }

  /**
   * The rest, as a terminal shows it at the end: the rows scrolled off not yet read, then the
   * screen (down to the cursor or the last non-blank row). A stream that ends on the alternate
   * screen (a full-screen program killed there) shows its last frame; the normal screen's rows
   * the frame hides are not shown, as no terminal shows them (tmux's capture-pane agrees).
   */
  end(): string {
    const normal = this.terminal.buffer.normal;
    this.open = ""; // an unfinished sequence at the end shows nothing
    let out = this.readScrolled(true);
    const screen = this.terminal.buffer.active;
    const first = screen === normal ? normal.baseY : 0;
    const cursor = first + screen.cursorY;
    out += this.readRows(screen, first, Math.max(cursor, lastContentRow(screen)) + 1);
    this.marker?.dispose();
    this.terminal.dispose();
    return out;
  }

  /** Rows that scrolled off the normal screen and were not read yet (none while on the other). */
  private readScrolled(evenOnAlternate = false): string {
    const normal = this.terminal.buffer.normal;
    if (this.terminal.buffer.active !== normal && !evenOnAlternate) return "";
    const first = this.marker && !this.marker.isDisposed ? this.marker.line : 0;
    if (first >= normal.baseY) return "";
    const out = this.readRows(normal, first, normal.baseY);
    this.marker?.dispose();
    this.marker = this.terminal.registerMarker(-normal.cursorY);
    return out;
  }

  private readRows(buffer: Terminal["buffer"]["normal"], from: number, to: number): string {
    let out = "";
    for (let row = from; row < to; row++) {
      const line = buffer.getLine(row);
      const next = buffer.getLine(row + 1);
      out += this.row(line, line?.isWrapped === true, next?.isWrapped === true);
    }
    return out;
  }

  /** One row's text, with the newline that separates it from the row before. */
  private row(line: IBufferLine | undefined, wrapped: boolean, continues: boolean): string {
    const separator = this.started && !wrapped ? "\n" : "";
    this.started = true;
    const text = line?.translateToString(!continues) ?? "";
    return separator + text;
  }
}

function lastContentRow(buffer: Terminal["buffer"]["normal"]): number {
  for (let row = buffer.length - 1; row >= buffer.baseY; row--) {
    if ((buffer.getLine(row)?.translateToString(true) ?? "") !== "") return row;
  }
  return -1;
}
