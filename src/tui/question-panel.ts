// The picker for what the model asks the user to choose (an `agent/ask` with `question` or
// `plan`): a heading, numbered choices (a digit or Enter picks), an optional "type your own"
// that opens a line of text, and a choice Esc also takes. A question (`ask_user`) offers its
// answers, "Type your own answer…" when free text is allowed, and "Don't answer"; a plan's
// choices are plan-block.ts's. Shown by app.ts in place of the permission prompt.
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

/** What a panel offers: each choice's label (shown as is) and the decision it stands for. */
export interface PanelChoices {
  /** The first line, after the "?" mark (escaped by the maker). */
  heading: string;
  /** A dim line under it ("the model asks"). */
  note: string;
  options: Array<{ label: string; decision: AskDecision }>;
  /** A choice that opens a line of text; the text typed becomes the decision. */
  own?: { label: string; prompt: string; decide(text: string): AskDecision };
  /** The last choice; Esc takes it too. */
  none: { label: string; decision: AskDecision };
}

/** A question's choices: its answers, free text when allowed, "Don't answer". */
function questionChoices(ask: AgentAsk): PanelChoices {
  const question = ask.question ?? { text: ask.reason, options: [], freeText: false };
  return {
    heading: safe(question.text),
    note: "the model asks",
    options: question.options.map((option) => ({
      label: safe(option),
      decision: { outcome: "answer", answer: option },
    })),
    ...(question.freeText
      ? {
          own: {
            label: "Type your own answer…",
            prompt: "Your answer (Enter sends, Esc goes back)",
            decide: (text: string): AskDecision => ({ outcome: "answer", answer: text }),
          },
        }
      : {}),
    none: { label: "Don't answer", decision: { outcome: "deny" } },
  };
}

export class QuestionPanel implements Component, Focusable {
  focused = false;
  private readonly list: SelectList;
  private readonly choices: PanelChoices;
  /** Each item's decision, by its place; null: the "own" choice. */
  private readonly decisions: Array<AskDecision | null>;
  private input: Input | null = null;
  private done = false;

  constructor(
    readonly ask: AgentAsk,
    private readonly theme: Theme,
    private readonly decide: (decision: AskDecision) => void,
    choices: PanelChoices = questionChoices(ask),
  ) {
    this.choices = choices;
    const entries: Array<{ label: string; decision: AskDecision | null }> = [
      ...choices.options,
      ...(choices.own ? [{ label: choices.own.label, decision: null }] : []),
      choices.none,
    ];
    this.decisions = entries.map((entry) => entry.decision);
    const items = entries.map((entry, index) => ({
      value: String(index),
      label: `${index + 1}. ${entry.label}`,
    }));
    this.list = new SelectList(items, items.length, theme.selectList);
    this.list.onSelect = (item) => this.pick(Number(item.value));
    this.list.onCancel = () => this.pick(entries.length - 1);
  }

  handleInput(data: string): void {
    if (this.done) return;
    if (this.input) {
      if (matchesKey(data, "escape")) this.input = null;
      else this.input.handleInput(data);
      return;
    }
    const index = /^[1-9]$/.test(data) ? Number(data) - 1 : -1;
    if (index >= 0 && index < this.decisions.length) this.pick(index);
    else this.list.handleInput(data);
  }

  invalidate(): void {
    this.list.invalidate();
  }

  render(width: number): string[] {
    const { theme, ask, choices } = this;
    const wrap = (text: string) =>
      wrapTextWithAnsi(text, Math.max(1, width - 2)).map((l) => `  ${l}`);
    const from = ask.subagent
      ? ` ${theme.dim(`(subagent: ${safe(ask.subagent.description)})`)}`
      : "";
    const head = [
      "",
      ...wrapTextWithAnsi(`${theme.warn("?")} ${choices.heading}${from}`, Math.max(1, width)),
    ];
    if (this.input && choices.own) {
      this.input.focused = this.focused;
      return [
        ...head,
        truncateToWidth(`  ${choices.own.prompt}`, width),
        ...this.input.render(width - 2).map((line) => `  ${line}`),
      ];
    }
    return [
      ...head,
      ...wrap(theme.dim(choices.note)),
      ...this.list.render(width - 2).map((l) => `  ${l}`),
    ];
  }

  private pick(index: number): void {
    const decision = this.decisions[index];
    const own = this.choices.own;
    if (decision === null && own) {
      const input = new Input();
      input.onSubmit = (text) => {
        if (text.trim() !== "") this.finish(own.decide(text.trim()));
      };
      this.input = input;
    } else if (decision) {
      this.finish(decision);
    }
  }

  private finish(decision: AskDecision): void {
    if (this.done) return;
    this.done = true;
    this.decide(decision);
  }
}
