// The permission prompt for one `agent/ask`: the call (a rewrite marked, what an edit writes:
// ask-preview.ts), why it asks, and the answers it offers: allow once, for this session (the
// rule named), always (that rule written to the user or project config, chosen, confirmed,
// trust explained), deny, deny with a reason for the model. Digits pick, Esc denies or goes
// back. Shown by app.ts, which writes the rule and passes the decision to `agent.answer`.
import {
  type Component,
  type Focusable,
  Input,
  matchesKey,
  SelectList,
  truncateToWidth,
  wrapTextWithAnsi,
} from "@mariozechner/pi-tui";
import type { AgentAsk, AskDecision } from "../agent/pending-asks.ts";
import type { RuleTarget } from "../config/index.ts";
import { writePreview } from "./ask-preview.ts";
import { callLabel } from "./call-label.ts";
import { safe } from "./safe-text.ts";
import type { Theme } from "./theme.ts";

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

  constructor(
    readonly ask: AgentAsk,
    private readonly theme: Theme,
    private readonly decide: (decision: AskDecision, always?: AlwaysAllow) => void,
    /** Where "always allow" can write its rule; none: it is not offered. */
    private readonly targets: readonly RuleTarget[] = [],
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
    if (this.done) return;
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
    const { theme, ask, stage } = this;
    const wrap = (text: string) =>
      wrapTextWithAnsi(text, Math.max(1, width - 2)).map((l) => `  ${l}`);
    const lines = [
      "",
      truncateToWidth(
        `${theme.warn("?")} Allow ${callLabel(safe(ask.name), safe(ask.presentation.title), theme)}?`,
        width,
      ),
      ...wrap(theme.dim(safe(ask.reason))),
    ];
    if (ask.originalArguments !== undefined) {
      const by = safe(ask.rewrittenBy ?? "a hook");
      const why = ask.rewriteReason ? `: ${safe(ask.rewriteReason)}` : "";
      lines.push(...wrap(theme.warn(`↻ rewritten by ${by}${why}`)));
      lines.push(...wrap(theme.dim(`model asked: ${safe(JSON.stringify(ask.originalArguments))}`)));
      lines.push(...wrap(theme.dim(`will run: ${safe(JSON.stringify(ask.arguments))}`)));
    }
    for (const line of writePreview(ask, theme)) lines.push(...wrap(line));
    const indent = (rows: string[]) => rows.map((line) => `  ${line}`);
    switch (stage.kind) {
      case "reason":
        stage.input.focused = this.focused;
        lines.push(truncateToWidth("  Why deny? (Enter sends, Esc goes back)", width));
        lines.push(...indent(stage.input.render(width - 2)));
        return lines;
      case "where":
        lines.push(...wrap(`Always allow ${theme.bold(safe(ask.sessionRule ?? ""))}: write it to`));
        lines.push(...indent(stage.list.render(width - 2)));
        return lines;
      case "confirm": {
        const { target } = stage;
        lines.push(
          ...wrap(
            `Add ${theme.bold(safe(JSON.stringify(ask.sessionRule ?? "")))} to [permissions] allow in ${safe(target.path)}?`,
          ),
        );
        lines.push(...wrap(theme.dim(safe(target.note))));
        lines.push(truncateToWidth("  Enter writes it and allows the call · Esc goes back", width));
        return lines;
      }
      case "choose":
        lines.push(...indent(this.list.render(width - 2)));
        return lines;
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
