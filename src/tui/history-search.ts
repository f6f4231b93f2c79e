// Ctrl-R: an incremental reverse search of the prompt history, shown above the editor while
// it is open. Typing narrows it to the newest prompt containing the query, Ctrl-R (or Up)
// steps to an older match, Down to a newer one, Enter takes the match into the editor, Esc
// (or Ctrl-C, Ctrl-G) leaves with the editor as it was. Opened and closed by app.ts.
import {
  type Component,
  type Focusable,
  Input,
  matchesKey,
  truncateToWidth,
} from "@mariozechner/pi-tui";
import { terminalSafe as safe } from "../runner/index.ts";
import type { PromptHistory } from "./history.ts";
import { keyIs } from "./keybindings.ts";
import type { Theme } from "./theme.ts";

export class HistorySearch implements Component, Focusable {
  private readonly input = new Input();
  /** The matches stepped through so far, newest first: Down goes back along them. */
  private trail: Array<{ index: number; text: string }> = [];
  private _focused = false;

  constructor(
    private readonly history: PromptHistory,
    private readonly theme: Theme,
    private readonly done: (taken: string | undefined) => void,
  ) {}

  get focused(): boolean {
    return this._focused;
  }

  set focused(value: boolean) {
    this._focused = value;
    this.input.focused = value;
  }

  /** The match shown now, if any. */
  get match(): string | undefined {
    return this.trail.at(-1)?.text;
  }

  handleInput(data: string): void {
    if (matchesKey(data, "enter")) {
      this.done(this.match);
    } else if (
      matchesKey(data, "escape") ||
      matchesKey(data, "ctrl+c") ||
      matchesKey(data, "ctrl+g")
    ) {
      this.done(undefined);
    } else if (keyIs(data, "historySearch") || matchesKey(data, "up")) {
      this.older();
    } else if (matchesKey(data, "down")) {
      if (this.trail.length > 1) this.trail.pop();
    } else {
      this.type(data);
    }
  }

  private type(data: string): void {
    const before = this.input.getValue();
    this.input.handleInput(data);
    if (this.input.getValue() !== before) this.restart();
  }

  private restart(): void {
    const found = this.history.search(this.input.getValue(), this.history.texts.length);
    this.trail = found ? [found] : [];
  }

  private older(): void {
    const from = this.trail.at(-1)?.index ?? this.history.texts.length;
    const found = this.history.search(this.input.getValue(), from);
    if (found) this.trail.push(found);
  }

  invalidate(): void {
    this.input.invalidate();
  }

  render(width: number): string[] {
    const { theme } = this;
    const query = this.input.getValue();
    const label = query && !this.match ? "no match" : "search history";
    const head = theme.dim(`${label} · Ctrl-R older · Enter take · Esc leave`);
    const shown = this.match === undefined ? "" : safe(this.match.replace(/\s*\n\s*/g, " ⏎ "));
    const match = truncateToWidth(`  ${theme.accent(shown)}`, width);
    return [truncateToWidth(head, width), ...this.input.render(width), match];
  }
}
