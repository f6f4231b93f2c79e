// What waits for the user above the status line: the asks of the session, one panel at a time
// in arrival order. A tool call's ask is the permission prompt (ask-panel.ts, whose "always
// allow" writes a rule); a question (`ask_user`) and a plan (`exit_plan`) are the question
// panel with their choices (question-panel.ts, plan-block.ts). An ask goes when it is answered
// here, or when the log says it was decided elsewhere (`drop`). Owned by app.ts.
import { Container, type TUI } from "@mariozechner/pi-tui";
import type { Agent, AgentAsk, AskDecision } from "../agent/index.ts";
import type { RuleTarget } from "../config/index.ts";
import { terminalSafe as safe } from "../runner/index.ts";
import { type AlwaysAllow, AskPanel } from "./ask-panel.ts";
import { planChoices } from "./plan-block.ts";
import { QuestionPanel } from "./question-panel.ts";
import type { Theme } from "./theme.ts";

interface AskAreaHost {
  tui: TUI;
  theme: Theme;
  agent(): Agent;
  /** Where focus goes back when no ask waits (the editor). */
  idleFocus(): void;
  /** A line in the transcript. */
  notice(line: string): void;
  /** "Always allow": where a rule can be written, and the writer (config/rule-file.ts). */
  rules?: { targets: readonly RuleTarget[]; add(file: string, rule: string): boolean };
}

export class AskArea {
  readonly root = new Container();
  private readonly asks: AgentAsk[] = [];
  private panel: AskPanel | QuestionPanel | undefined;

  constructor(private readonly host: AskAreaHost) {}

  /** True while a panel is shown (it has the keys). */
  get showing(): boolean {
    return this.panel !== undefined;
  }

  add(ask: AgentAsk): void {
    this.asks.push(ask);
    if (!this.panel) this.showNext();
  }

  /** The ask of `callId` was decided (answered elsewhere, cancelled): it goes. */
  drop(callId: string): void {
    const waiting = this.asks.findIndex((ask) => ask.callId === callId);
    if (waiting >= 0) this.asks.splice(waiting, 1);
    if (this.panel?.ask.callId === callId) this.showNext();
  }

  private showNext(): void {
    const { tui, theme } = this.host;
    const ask = this.asks.shift();
    this.root.clear();
    this.panel = undefined;
    if (!ask) {
      this.host.idleFocus();
      tui.requestRender();
      return;
    }
    const agent = this.host.agent();
    const answered = (decision: AskDecision) => {
      agent.dispatch({ type: "answer", id: ask.id, decision });
      this.showNext();
    };
    let panel: AskPanel | QuestionPanel;
    if (ask.question) panel = new QuestionPanel(ask, theme, answered);
    else if (ask.plan) panel = new QuestionPanel(ask, theme, answered, planChoices());
    else {
      const always = (decision: AskDecision, rule?: AlwaysAllow) => {
        if (rule) this.writeRule(rule);
        answered(decision);
      };
      panel = new AskPanel(ask, theme, always, this.host.rules?.targets, () => tui.terminal.rows);
    }
    this.panel = panel;
    this.root.addChild(panel);
    tui.setFocus(panel);
    tui.requestRender();
  }

  /** Writes an "always allow" rule; the call is allowed for the session either way. */
  private writeRule({ target, rule }: AlwaysAllow): void {
    const { theme } = this.host;
    try {
      const added = this.host.rules?.add(target.path, rule);
      const where = `${added ? "added to" : "already in"} ${target.path}`;
      this.host.notice(theme.dim(safe(`always allow ${rule}: ${where}`)));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.host.notice(theme.bad(safe(`the rule was not written: ${message}`)));
    }
    this.host.tui.requestRender();
  }
}
