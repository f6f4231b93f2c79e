// The launch frame on pi-tui 0.73's TUI: a frame the bin already drew (src/cli/launch.ts) is
// made the TUI's previous frame, so its first render draws only what differs (nothing, when the
// frame was right); and the first frame the TUI draws itself is reported, its lines and the
// bytes it wrote, for the CLI to keep. Reaches private members of pi-tui's TUI, checked here.
// Called by index.ts.
import type { Terminal, TUI } from "@mariozechner/pi-tui";

/** A frame on screen (drawn by the bin) or just drawn (by the TUI). */
export interface ScreenFrame {
  lines: string[];
  columns: number;
  rows: number;
  /** The row of the frame the cursor is on. */
  cursorRow: number;
}

/** The first frame the TUI drew, with every byte it wrote for it. */
export interface DrawnFrame extends ScreenFrame {
  written: string;
}

/** The members of pi-tui's TUI this relies on (private in its types; present in 0.73.x). */
interface FrameState {
  previousLines: string[];
  previousWidth: number;
  previousHeight: number;
  cursorRow: number;
  hardwareCursorRow: number;
  maxLinesRendered: number;
  previousViewportTop: number;
}

function stateOf(tui: TUI): FrameState {
  const view = tui as unknown as Partial<FrameState>;
  if (!Array.isArray(view.previousLines) || typeof view.hardwareCursorRow !== "number") {
    throw new Error("launch-seed: this pi-tui's TUI has no previousLines/hardwareCursorRow");
  }
  return view as FrameState;
}

/** Makes `frame` the TUI's previous frame, as if its own first render had drawn it. */
export function seedFrame(tui: TUI, frame: ScreenFrame): void {
  const state = stateOf(tui);
  state.previousLines = frame.lines.slice();
  state.previousWidth = frame.columns;
  state.previousHeight = frame.rows;
  state.cursorRow = Math.max(0, frame.lines.length - 1);
  state.hardwareCursorRow = frame.cursorRow;
  state.maxLinesRendered = frame.lines.length;
  state.previousViewportTop = Math.max(0, Math.max(frame.rows, frame.lines.length) - frame.rows);
}

/** Runs `draw` (one render) and returns the frame it left, with the bytes it wrote. */
export function captureFrame(tui: TUI, terminal: Terminal, draw: () => void): DrawnFrame {
  const state = stateOf(tui);
  const write = terminal.write;
  let written = "";
  terminal.write = (data) => {
    written += data;
    write.call(terminal, data);
  };
  try {
    draw();
  } finally {
    terminal.write = write;
  }
  return {
    lines: state.previousLines.slice(),
    columns: state.previousWidth,
    rows: state.previousHeight,
    cursorRow: state.hardwareCursorRow,
    written,
  };
}
