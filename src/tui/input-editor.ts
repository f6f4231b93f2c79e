// The input editor: pi-tui's Editor, whose large-paste markers (`[paste #1 +2400 lines]`, kept
// in the text so the paste expands on submit) are shown as `[pasted 2,400 lines]`. Display
// only: the label is padded to the marker's width, so wrapping and the cursor stay where the
// editor put them. And `refreshCompletion`, for commands that arrive while a `/…` is typed
// (pi-tui recomputes its menu only on a key). And vim's normal mode when it is on (vim-mode.ts),
// its mode named on a line above the editor. Made by app.ts.
import { Editor, truncateToWidth } from "@mariozechner/pi-tui";
import { VimMode } from "./vim-mode.ts";

const MARKER = /\[paste #\d+ (?:\+(\d+) lines|(\d+) chars)\]/g;

/** One rendered line with each paste marker relabelled, its width unchanged. */
export function relabelPastes(line: string): string {
  return line.replace(MARKER, (whole, lines: string | undefined, chars: string | undefined) => {
    const count = Number(lines ?? chars).toLocaleString("en-US");
    const label = `[pasted ${count} ${lines === undefined ? "chars" : "lines"}]`;
    return label.length <= whole.length ? label.padEnd(whole.length) : whole;
  });
}

/** The members of pi-tui 0.73's Editor `refreshCompletion` uses (private in its types). */
interface CompletionInternals {
  isInSlashCommandContext(textBeforeCursor: string): boolean;
  tryTriggerAutocomplete(): void;
  updateAutocomplete(): void;
}

/** The members of pi-tui 0.73's Editor that place the cursor (private in its types). */
interface CursorInternals {
  state: { lines: string[]; cursorLine: number; cursorCol: number };
  setCursorCol(col: number): void;
}

export class InputEditor extends Editor {
  /** Vim's modes, while `[display] editor_mode = "vim"` or `/vim` has them on. */
  private vim: VimMode | undefined;
  /** How the vim mode's line is drawn (the theme's dim). */
  private vimStyle: (text: string) => string = (text) => text;

  /** Whether this pi-tui's editor lets the cursor be placed, which vim's motions need. */
  get vimSupported(): boolean {
    const internals = this as unknown as Partial<CursorInternals>;
    return typeof internals.setCursorCol === "function" && Array.isArray(internals.state?.lines);
  }

  get vimOn(): boolean {
    return this.vim !== undefined;
  }

  /** Turns vim's modes on (in insert mode) or off; false when this editor cannot have them. */
  setVim(on: boolean, style: (text: string) => string): boolean {
    if (on && !this.vimSupported) return false;
    this.vimStyle = style;
    this.vim = on ? new VimMode(this) : undefined;
    this.invalidate();
    return true;
  }

  /** Places the cursor (vim's motions), clamped to the text. */
  moveCursorTo(line: number, col: number): void {
    const internals = this as unknown as CursorInternals;
    const lines = internals.state.lines;
    const row = Math.max(0, Math.min(line, lines.length - 1));
    internals.state.cursorLine = row;
    internals.setCursorCol(Math.max(0, Math.min(col, (lines[row] ?? "").length)));
  }

  override handleInput(data: string): void {
    const vim = this.vim;
    if (vim?.handle(data, this.isShowingAutocomplete())) {
      this.tui.requestRender();
      return;
    }
    super.handleInput(data);
    // A prompt sent (or cleared) from normal mode: the next one is typed in insert mode.
    if (vim && this.getText() === "") vim.mode = "insert";
  }

  /**
   * Computes the completion menu again for the text as it stands, as a key would: the menu
   * shown is updated, and a `/name` being typed whose menu found nothing is offered again.
   */
  refreshCompletion(): void {
    const internals = this as unknown as Partial<CompletionInternals>;
    if (typeof internals.updateAutocomplete !== "function") return;
    if (this.isShowingAutocomplete()) {
      internals.updateAutocomplete();
      return;
    }
    const { line, col } = this.getCursor();
    const before = (this.getLines()[line] ?? "").slice(0, col);
    if (internals.isInSlashCommandContext?.(before) && !before.trimStart().includes(" ")) {
      internals.tryTriggerAutocomplete?.();
    }
  }

  override render(width: number): string[] {
    const lines = super
      .render(width)
      .map((line) => (line.includes("[paste #") ? relabelPastes(line) : line));
    if (!this.vim) return lines;
    const label = this.vim.mode === "normal" ? " -- NORMAL --" : " -- INSERT --";
    return [this.vimStyle(truncateToWidth(label, width)), ...lines];
  }
}
