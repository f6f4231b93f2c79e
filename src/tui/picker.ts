// A searchable list above the input editor (the `/resume` picker): typing filters the items
// fuzzily by label and description; keybindings.json's `select…` keys (Up/Down, Enter, Esc or
// Ctrl-C) move, pick and leave. Items come in the caller's order (sessions: this project's
// first, newest first), their labels and descriptions shown through the escaper. Opened by
// app.ts, which gives it focus while open.
import {
  type Component,
  type Focusable,
  fuzzyFilter,
  getKeybindings,
  Input,
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
    const keys = getKeybindings();
    const confirm = keys.matches(data, "tui.select.confirm");
    if (keys.matches(data, "tui.select.cancel")) {
      this.done(undefined);
    } else if (
      confirm ||
      keys.matches(data, "tui.select.up") ||
      keys.matches(data, "tui.select.down")
    ) {
      if (confirm && !this.list.getSelectedItem()) return;
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
