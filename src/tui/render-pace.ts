// Keeps typing quick while an answer streams, on pi-tui 0.73's TUI: the frame a key changes
// is drawn as soon as the keys read together are handled (pi-tui waits for its next 16 ms render
// slot, which a stream keeps busy), and a frame reuses the previous frame's finished lines for
// every line that did not change (pi-tui re-normalises all of them, the whole transcript, each
// frame). Reaches private members of pi-tui's TUI, checked on install. Called by index.ts.
import type { Terminal, TUI } from "@mariozechner/pi-tui";

/** The members of pi-tui's TUI this relies on (private in its types; present in 0.73.x). */
interface TuiInternals {
  stopped: boolean;
  renderRequested: boolean;
  renderTimer: NodeJS.Timeout | undefined;
  lastRenderAt: number;
  doRender(): void;
  applyLineResets(lines: string[]): string[];
}

function internalsOf(tui: TUI): TuiInternals {
  const view = tui as unknown as Partial<TuiInternals>;
  if (typeof view.doRender !== "function" || typeof view.applyLineResets !== "function") {
    throw new Error("render-pace: this pi-tui's TUI has no doRender/applyLineResets");
  }
  return view as TuiInternals;
}

/**
 * Installs both on `tui`, whose input comes from `terminal`; call before `tui.start()`.
 * Returns the number of frames drawn for keys ahead of their slot (for tests), and `drawNow`,
 * which draws a requested frame at once (the first one, before the session opens).
 */
export function paceRendering(
  tui: TUI,
  terminal: Terminal,
): { keyFrames: () => number; drawNow: () => void } {
  const internals = internalsOf(tui);
  reuseFinishedLines(tui, internals);
  let keyFrames = 0;
  let pending = false;
  /** What pi-tui's own render slot does, without waiting for it; false when nothing to draw. */
  const drawNow = (): boolean => {
    if (internals.stopped || !internals.renderRequested) return false;
    if (internals.renderTimer) clearTimeout(internals.renderTimer);
    internals.renderTimer = undefined;
    internals.renderRequested = false;
    internals.lastRenderAt = performance.now();
    internals.doRender();
    return true;
  };
  const start = terminal.start.bind(terminal);
  terminal.start = (onInput, onResize) =>
    start((data) => {
      onInput(data);
      // After the keys of this read (and any stream data read with them): one frame.
      if (pending) return;
      pending = true;
      setImmediate(() => {
        pending = false;
        if (drawNow()) keyFrames++;
      });
    }, onResize);
  return { keyFrames: () => keyFrames, drawNow: () => void drawNow() };
}

/**
 * pi-tui normalises every line and appends a reset to it on every frame, making new strings,
 * so its diff against the previous frame compares each line character by character. A line
 * identical to the one at its place last frame gets last frame's result (the same string).
 */
function reuseFinishedLines(tui: TUI, internals: TuiInternals): void {
  const normalise = internals.applyLineResets.bind(tui);
  let before: string[] = [];
  let after: string[] = [];
  internals.applyLineResets = (lines) => {
    const given = lines.slice();
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      lines[i] = before[i] === line ? (after[i] as string) : (normalise([line])[0] as string);
    }
    before = given;
    after = lines.slice();
    return lines;
  };
}
