// The permission prompt for one `agent/ask`: what the call will do (the presenter's title, a
// rewritten call marked with the model's original), why it asks, and the answers the ask
// offers: allow once, allow for this session (naming the rule it adds), deny, or deny with a
// reason typed for the model. Keys 1-4 pick directly, Esc denies. Shown and focused by app.ts,
// which passes the decision to `agent.answer`.
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
import { callLabel } from "./call-label.ts";
import { safe } from "./safe-text.ts";
import type { Theme } from "./theme.ts";

type Choice = "once" | "session" | "deny" | "reason";

export class AskPanel implements Component, Focusable {
  focused = false;
  private readonly list: SelectList;
  private readonly choices: Choice[];
  private reasonInput: Input | undefined;
  private done = false;

  constructor(
    readonly ask: AgentAsk,
    private readonly theme: Theme,
    private readonly decide: (decision: AskDecision) => void,
  ) {
    const items: Array<{ value: Choice; label: string; description?: string }> = [
      { value: "once", label: "1. Allow once" },
    ];
    if (ask.options.includes("allow_session")) {
      const rule = ask.sessionRule ? `adds ${safe(ask.sessionRule)}` : "";
      items.push({ value: "session", label: "2. Allow for this session", description: rule });
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
    if (this.reasonInput) {
      if (matchesKey(data, "escape")) {
        this.reasonInput = undefined;
        return;
      }
      this.reasonInput.handleInput(data);
      return;
    }
    const index = Number(data) - 1;
    const picked = /^[1-9]$/.test(data) ? this.choices[index] : undefined;
    if (picked) {
      this.pick(picked);
      return;
    }
    this.list.handleInput(data);
  }

  invalidate(): void {
    this.list.invalidate();
  }

  render(width: number): string[] {
    const { theme, ask } = this;
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
      lines.push(
        ...wrap(
          theme.warn(
            `↻ rewritten by ${by}${ask.rewriteReason ? `: ${safe(ask.rewriteReason)}` : ""}`,
          ),
        ),
      );
      lines.push(...wrap(theme.dim(`model asked: ${safe(JSON.stringify(ask.originalArguments))}`)));
      lines.push(...wrap(theme.dim(`will run: ${safe(JSON.stringify(ask.arguments))}`)));
    }
    if (this.reasonInput) {
      this.reasonInput.focused = this.focused;
      lines.push(truncateToWidth("  Why deny? (Enter sends, Esc goes back)", width));
      lines.push(...this.reasonInput.render(width - 2).map((line) => `  ${line}`));
      return lines;
    }
    lines.push(...this.list.render(width - 2).map((line) => `  ${line}`));
    return lines;
  }

  private pick(choice: Choice): void {
    if (choice === "reason") {
      const input = new Input();
      input.onSubmit = (value) =>
        this.finish({ outcome: "deny", reason: value.trim() || undefined });
      this.reasonInput = input;
      return;
    }
    if (choice === "once") {
      this.finish({ outcome: "allow", scope: "once" });
      return;
    }
    if (choice === "session") {
      this.finish({ outcome: "allow", scope: "session" });
      return;
    }
    this.finish({ outcome: "deny" });
  }

  private finish(decision: AskDecision): void {
    if (this.done) return;
    this.done = true;
    this.decide(decision);
  }
}
