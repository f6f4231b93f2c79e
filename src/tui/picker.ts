// A searchable list above the input editor (the `/resume` picker): typing filters the items
// fuzzily by label and description, and, given a `search`, shows first the items it finds for
// the text (the sessions whose content matches); keybindings.json's `select…` keys (Up/Down,
// Enter, Esc or Ctrl-C) move, pick and leave. Items come in the caller's order (sessions: this
// project's first, newest first), their labels and descriptions shown through the escaper.
// Opened by app.ts, which gives it focus while open.
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
    private readonly search?: (query: string) => readonly SelectItem[],
  ) {
    this.items = items.map(safeItem);
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
      this.list = this.listOf(query ? this.filtered(query) : this.items);
    }
  }

  /** What `search` finds, then the fuzzy matches of the labels it did not find. */
  private filtered(query: string): SelectItem[] {
    const found = (this.search?.(query) ?? []).map(safeItem);
    const values = new Set(found.map((item) => item.value));
    const fuzzy = fuzzyFilter([...this.items], query, (i) => `${i.label} ${i.description ?? ""}`);
    return [...found, ...fuzzy.filter((item) => !values.has(item.value))];
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

function safeItem(item: SelectItem): SelectItem {
  return {
    ...item,
    label: terminalSafeLine(item.label),
    ...(item.description === undefined ? {} : { description: terminalSafeLine(item.description) }),
  };
}
