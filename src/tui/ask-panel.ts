// The permission prompt for one `agent/ask`: the whole call (every line of a command, every
// argument, a rewrite marked, what an edit writes: ask-preview.ts), scrolled with PgUp/PgDn
// when it is taller than the screen allows, why it asks, and the answers it offers: allow
// once, for this session (the rule named), always (that rule written to the user or project
// config, chosen, confirmed, trust explained), deny, deny with a reason for the model. Digits
// pick, Esc denies or goes back. Shown by app.ts, which passes the decision to `agent.answer`.
import {
  type Component,
  type Focusable,
  Input,
  matchesKey,
  SelectList,
  truncateToWidth,
  wrapTextWithAnsi,
} from "@mariozechner/pi-tui";
import type { AgentAsk, AskDecision } from "../agent/index.ts";
import type { RuleTarget } from "../config/index.ts";
import { terminalSafe as safe } from "../runner/index.ts";
import { callPreview } from "./ask-preview.ts";
import { callLabel } from "./call-label.ts";
import type { Theme } from "./theme.ts";

/** Rows below the prompt that stay on screen with it: the status line and the editor. */
const ROWS_BELOW = 6;
/** The call is given at least this many rows, however small the screen. */
const MIN_CALL_ROWS = 4;

type Choice = "once" | "session" | "always" | "deny" | "reason";

/** An "always allow" the user confirmed: app.ts writes `rule` to `target` before answering. */
export interface AlwaysAllow {
  target: RuleTarget;
  rule: string;
}

type Stage =
  | { kind: "choose" }
  | { kind: "where"; list: SelectList }
  | { kind: "confirm"; target: RuleTarget }
  | { kind: "reason"; input: Input };

export class AskPanel implements Component, Focusable {
  focused = false;
  private readonly list: SelectList;
  private readonly choices: Choice[];
  private stage: Stage = { kind: "choose" };
  private done = false;
  /** The first row of the call shown, and the rows of the last frame (for paging). */
  private offset = 0;
  private shownRows = MIN_CALL_ROWS;

  constructor(
    readonly ask: AgentAsk,
    private readonly theme: Theme,
    private readonly decide: (decision: AskDecision, always?: AlwaysAllow) => void,
    /** Where "always allow" can write its rule; none: it is not offered. */
    private readonly targets: readonly RuleTarget[] = [],
    /** The terminal's height: the call scrolls within what the screen leaves it. */
    private readonly screenRows: () => number = () => 24,
  ) {
    const items: Array<{ value: Choice; label: string; description?: string }> = [
      { value: "once", label: "1. Allow once" },
    ];
    const rule = ask.options.includes("allow_session") ? ask.sessionRule : undefined;
    if (ask.options.includes("allow_session")) {
      const adds = rule ? `adds ${safe(rule)}` : "";
      items.push({ value: "session", label: "2. Allow for this session", description: adds });
    }
    if (rule && targets.length > 0) {
      items.push({
        value: "always",
        label: `${items.length + 1}. Always allow…`,
        description: "writes the rule to a config file",
      });
    }
    items.push({ value: "deny", label: `${items.length + 1}. Deny` });
    items.push({ value: "reason", label: `${items.length + 1}. Deny, and tell the model why…` });
    this.choices = items.map((item) => item.value);
    this.list = new SelectList(items, items.length, theme.selectList);
    this.list.onSelect = (item) => this.pick(item.value as Choice);
    this.list.onCancel = () => this.pick("deny");
  }

  handleInput(data: string): void {
    if (this.done || this.scroll(data)) return;
    const { stage } = this;
    const back = () => {
      this.stage = { kind: "choose" };
    };
    if (stage.kind === "reason") {
      if (matchesKey(data, "escape")) back();
      else stage.input.handleInput(data);
    } else if (stage.kind === "where") {
      const target = /^[1-9]$/.test(data) ? this.targets[Number(data) - 1] : undefined;
      if (target) this.stage = { kind: "confirm", target };
      else if (!/^[1-9]$/.test(data)) stage.list.handleInput(data);
    } else if (stage.kind === "confirm") {
      if (matchesKey(data, "escape")) back();
      else if (matchesKey(data, "enter") || data === "y") {
        const always = { target: stage.target, rule: this.ask.sessionRule ?? "" };
        this.finish({ outcome: "allow", scope: "session" }, always);
      }
    } else {
      const picked = /^[1-9]$/.test(data) ? this.choices[Number(data) - 1] : undefined;
      if (picked) this.pick(picked);
      else this.list.handleInput(data);
    }
  }

  invalidate(): void {
    this.list.invalidate();
  }

  render(width: number): string[] {
    const { theme, ask } = this;
    const wrap = (text: string) =>
      wrapTextWithAnsi(text, Math.max(1, width - 2)).map((l) => `  ${l}`);
    // A subagent's call is asked here too (docs/subagents.md#asks): which child asks.
    const from = ask.subagent
      ? ` ${theme.dim(`(subagent: ${safe(ask.subagent.description)})`)}`
      : "";
    const title = `${theme.warn("?")} Allow ${callLabel(safe(ask.name), safe(ask.presentation.title), theme)}?${from}`;
    const head = ["", ...wrapTextWithAnsi(title, Math.max(1, width))];
    const body = [...wrap(theme.dim(safe(ask.reason)))];
    if (ask.originalArguments !== undefined) {
      const by = safe(ask.rewrittenBy ?? "a hook");
      const why = ask.rewriteReason ? `: ${safe(ask.rewriteReason)}` : "";
      body.push(...wrap(theme.warn(`↻ rewritten by ${by}${why}`)));
      body.push(...wrap(theme.dim(`model asked: ${safe(JSON.stringify(ask.originalArguments))}`)));
      body.push(...wrap(theme.dim("will run:")));
    }
    for (const line of callPreview(ask, theme)) body.push(...wrap(line));
    const tail = this.renderStage(width, wrap);
    const room = this.screenRows() - ROWS_BELOW - head.length - tail.length - 1;
    return [...head, ...this.window(body, Math.max(MIN_CALL_ROWS, room)), ...tail];
  }

  /** The rows of the call that fit, and a line saying what is above and below them. */
  private window(body: string[], rows: number): string[] {
    if (body.length <= rows + 1) {
      this.offset = 0;
      return body;
    }
    this.shownRows = rows;
    this.offset = Math.min(Math.max(0, this.offset), body.length - rows);
    const end = this.offset + rows;
    const below = body.length - end;
    const where = `rows ${this.offset + 1}–${end} of ${body.length}`;
    const more = below > 0 ? `, ${below} more below` : ", the end";
    const hint = `  ${where}${more} · PgDn/PgUp scroll (Shift+↓/↑ a row)`;
    return [...body.slice(this.offset, end), this.theme.warn(hint)];
  }

  /** PgUp/PgDn page through a call taller than its window, Shift+↑/↓ a row at a time. */
  private scroll(data: string): boolean {
    const page = Math.max(1, this.shownRows - 1);
    let by = 0;
    if (matchesKey(data, "pageDown")) by = page;
    else if (matchesKey(data, "pageUp")) by = -page;
    else if (matchesKey(data, "shift+down")) by = 1;
    else if (matchesKey(data, "shift+up")) by = -1;
    if (by === 0) return false;
    this.offset = Math.max(0, this.offset + by);
    return true;
  }

  private renderStage(width: number, wrap: (text: string) => string[]): string[] {
    const { theme, ask, stage } = this;
    const indent = (rows: string[]) => rows.map((line) => `  ${line}`);
    switch (stage.kind) {
      case "reason":
        stage.input.focused = this.focused;
        return [
          truncateToWidth("  Why deny? (Enter sends, Esc goes back)", width),
          ...indent(stage.input.render(width - 2)),
        ];
      case "where":
        return [
          ...wrap(`Always allow ${theme.bold(safe(ask.sessionRule ?? ""))}: write it to`),
          ...indent(stage.list.render(width - 2)),
        ];
      case "confirm": {
        const { target } = stage;
        const rule = theme.bold(safe(JSON.stringify(ask.sessionRule ?? "")));
        return [
          ...wrap(`Add ${rule} to [permissions] allow in ${safe(target.path)}?`),
          ...wrap(theme.dim(safe(target.note))),
          truncateToWidth("  Enter writes it and allows the call · Esc goes back", width),
        ];
      }
      case "choose":
        return indent(this.list.render(width - 2));
    }
  }

  private pick(choice: Choice): void {
    if (choice === "reason") {
      const input = new Input();
      input.onSubmit = (value) =>
        this.finish({ outcome: "deny", reason: value.trim() || undefined });
      this.stage = { kind: "reason", input };
    } else if (choice === "always") {
      this.stage = { kind: "where", list: this.whereList() };
    } else if (choice === "once") {
      this.finish({ outcome: "allow", scope: "once" });
    } else if (choice === "session") {
      this.finish({ outcome: "allow", scope: "session" });
    } else {
      this.finish({ outcome: "deny" });
    }
  }

  private whereList(): SelectList {
    const items = this.targets.map((target, index) => ({
      value: String(index),
      label: `${index + 1}. ${target.kind === "user" ? "Your user config" : "This project's config"} ${safe(target.path)}`,
      description: safe(target.note),
    }));
    const list = new SelectList(items, items.length, this.theme.selectList);
    list.onSelect = (item) => {
      const target = this.targets[Number(item.value)];
      if (target) this.stage = { kind: "confirm", target };
    };
    list.onCancel = () => {
      this.stage = { kind: "choose" };
    };
    return list;
  }

  private finish(decision: AskDecision, always?: AlwaysAllow): void {
    if (this.done) return;
    this.done = true;
    this.decide(decision, always);
  }
}
