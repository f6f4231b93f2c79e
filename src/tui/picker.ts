// A searchable list above the input editor (the `/resume` picker): typing filters the items
// fuzzily by their label and description, Up/Down move, Enter picks, Esc (or Ctrl-C) leaves.
// Items come in the order the caller wants them shown (for sessions: this project's first,
// newest first); their labels and descriptions (a session's title, its workspace) are shown
// through the escaper. Opened by app.ts, which gives it focus while open.
import {
  type Component,
  type Focusable,
  fuzzyFilter,
  Input,
  matchesKey,
  type SelectItem,
  SelectList,
  truncateToWidth,
} from "@mariozechner/pi-tui";
import { terminalSafeLine } from "../runner/index.ts";
import type { Theme } from "./theme.ts";

const VISIBLE = 10;

export class Picker implements Component, Focusable {
  private readonly input = new Input();
  private list: SelectList;
  private readonly items: readonly SelectItem[];
  private _focused = false;

  constructor(
    private readonly title: string,
    items: readonly SelectItem[],
    private readonly theme: Theme,
    private readonly done: (picked: string | undefined) => void,
  ) {
    this.items = items.map((item) => ({
      ...item,
      label: terminalSafeLine(item.label),
      ...(item.description === undefined
        ? {}
        : { description: terminalSafeLine(item.description) }),
    }));
    this.list = this.listOf(this.items);
  }

  get focused(): boolean {
    return this._focused;
  }

  set focused(value: boolean) {
    this._focused = value;
    this.input.focused = value;
  }

  private listOf(items: readonly SelectItem[]): SelectList {
    const list = new SelectList([...items], VISIBLE, this.theme.selectList);
    list.onSelect = (item) => this.done(item.value);
    return list;
  }

  handleInput(data: string): void {
    if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
      this.done(undefined);
    } else if (matchesKey(data, "up") || matchesKey(data, "down") || matchesKey(data, "enter")) {
      if (matchesKey(data, "enter") && !this.list.getSelectedItem()) return;
      this.list.handleInput(data);
    } else {
      const before = this.input.getValue();
      this.input.handleInput(data);
      const query = this.input.getValue();
      if (query === before) return;
      const shown = query
        ? fuzzyFilter([...this.items], query, (item) => `${item.label} ${item.description ?? ""}`)
        : this.items;
      this.list = this.listOf(shown);
    }
  }

  invalidate(): void {
    this.input.invalidate();
    this.list.invalidate();
  }

  render(width: number): string[] {
    const head = this.theme.dim(`${this.title} · type to search · Enter pick · Esc leave`);
    return [truncateToWidth(head, width), ...this.input.render(width), ...this.list.render(width)];
  }
}
