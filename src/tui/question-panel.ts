// The picker for a question the model asks (`ask_user`: an `agent/ask` with `question`): the
// question, its options numbered (a digit or Enter picks), "Type your own answer…" when free
// text is allowed, and "Don't answer" (Esc too). Shown by app.ts in place of the permission
// prompt; the decision goes to `agent.answer`.
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
import { terminalSafe as safe } from "../runner/index.ts";
import type { Theme } from "./theme.ts";

const OWN = "\u0000own";
const NONE = "\u0000none";

export class QuestionPanel implements Component, Focusable {
  focused = false;
  private readonly list: SelectList;
  private readonly values: string[];
  private input: Input | null = null;
  private done = false;

  constructor(
    readonly ask: AgentAsk,
    private readonly theme: Theme,
    private readonly decide: (decision: AskDecision) => void,
  ) {
    const question = ask.question ?? { text: ask.reason, options: [], freeText: false };
    const items = question.options.map((option, index) => ({
      value: option,
      label: `${index + 1}. ${safe(option)}`,
    }));
    if (question.freeText)
      items.push({ value: OWN, label: `${items.length + 1}. Type your own answer…` });
    items.push({ value: NONE, label: `${items.length + 1}. Don't answer` });
    this.values = items.map((item) => item.value);
    this.list = new SelectList(items, items.length, theme.selectList);
    this.list.onSelect = (item) => this.pick(item.value);
    this.list.onCancel = () => this.pick(NONE);
  }

  handleInput(data: string): void {
    if (this.done) return;
    if (this.input) {
      if (matchesKey(data, "escape")) this.input = null;
      else this.input.handleInput(data);
      return;
    }
    const picked = /^[1-9]$/.test(data) ? this.values[Number(data) - 1] : undefined;
    if (picked !== undefined) this.pick(picked);
    else this.list.handleInput(data);
  }

  invalidate(): void {
    this.list.invalidate();
  }

  render(width: number): string[] {
    const { theme, ask } = this;
    const wrap = (text: string) =>
      wrapTextWithAnsi(text, Math.max(1, width - 2)).map((l) => `  ${l}`);
    const from = ask.subagent
      ? ` ${theme.dim(`(subagent: ${safe(ask.subagent.description)})`)}`
      : "";
    const head = [
      "",
      ...wrapTextWithAnsi(
        `${theme.warn("?")} ${safe(ask.question?.text ?? ask.reason)}${from}`,
        Math.max(1, width),
      ),
    ];
    if (this.input) {
      this.input.focused = this.focused;
      return [
        ...head,
        truncateToWidth("  Your answer (Enter sends, Esc goes back)", width),
        ...this.input.render(width - 2).map((line) => `  ${line}`),
      ];
    }
    return [
      ...head,
      ...wrap(theme.dim("the model asks")),
      ...this.list.render(width - 2).map((l) => `  ${l}`),
    ];
  }

  private pick(value: string): void {
    if (value === OWN) {
      const input = new Input();
      input.onSubmit = (text) => {
        if (text.trim() !== "") this.finish({ outcome: "answer", answer: text.trim() });
      };
      this.input = input;
    } else if (value === NONE) {
      this.finish({ outcome: "deny" });
    } else {
      this.finish({ outcome: "answer", answer: value });
    }
  }

  private finish(decision: AskDecision): void {
    if (this.done) return;
    this.done = true;
    this.decide(decision);
  }
}
