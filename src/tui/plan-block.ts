// How a plan shows in the terminal (plan mode's `exit_plan`: docs/terminal.md, "Plans"): in
// the transcript, the plan as Markdown under a "Plan" heading (`plan/proposed`) and one line
// for the decision (`plan/decided`), live and replayed alike (transcript.ts); and the choices
// the question panel offers for it (app.ts).
import { type Component, Container, Markdown, Spacer, Text } from "@mariozechner/pi-tui";
import { terminalSafe as safe } from "../runner/index.ts";
import type { EventOf } from "../session/events.ts";
import type { PanelChoices } from "./question-panel.ts";
import type { Theme } from "./theme.ts";

/** The proposed plan: a heading, then the plan as Markdown, indented like the answer. */
export function planBlock(event: EventOf<"plan/proposed">, theme: Theme): Component {
  const block = new Container();
  block.addChild(new Spacer(1));
  block.addChild(new Text(`${theme.accent("▌")} ${theme.bold("Plan")}`, 0, 0));
  block.addChild(new Markdown(safe(event.plan), 2, 0, theme.markdown));
  return block;
}

/** The decision on a plan, one line (the feedback's first line). */
export function planDecisionLine(event: EventOf<"plan/decided">, theme: Theme): string {
  if (event.approved) {
    const mode = event.mode ?? "default";
    return theme.good(`✓ plan approved · permission mode ${mode}`);
  }
  if (event.by === "default") return theme.dim(safe(`plan not approved: ${event.reason ?? ""}`));
  const feedback = event.feedback?.split("\n", 1)[0];
  return theme.warn(safe(`✗ keep planning${feedback ? `: ${feedback}` : ""}`));
}

/**
 * A plan's choices in the question panel (question-panel.ts): approve and continue in default
 * mode, approve and accept edits, keep planning with feedback typed for the model, or keep
 * planning without (Esc).
 */
export function planChoices(): PanelChoices {
  return {
    heading: "Approve this plan?",
    note: "the model's plan is above; approving ends plan mode",
    options: [
      {
        label: "Yes, and continue in default mode (edits and commands ask)",
        decision: { outcome: "approve", mode: "default" },
      },
      {
        label: "Yes, and accept edits",
        decision: { outcome: "approve", mode: "accept-edits" },
      },
    ],
    own: {
      label: "No, keep planning: tell the model what to change…",
      prompt: "What should change? (Enter sends, Esc goes back)",
      decide: (text) => ({ outcome: "deny", reason: text }),
    },
    none: { label: "No, keep planning", decision: { outcome: "deny" } },
  };
}
