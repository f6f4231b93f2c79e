// What a person is told when an ask waits for them: the `message` and `notification_type` of
// the Notification hook (Claude Code's wording for a permission) and the text of the terminal's
// desktop notification; also the wording of `idle_prompt`, when the prompt has waited for input
// (IDLE_NOTICE). Takes the ask's shape structurally (hooks sit below the agent). Used by
// agent.ts and tui/app.ts.
import type { NotificationType } from "./session-hooks.ts";

interface AskShape {
  /** The tool the call asks for. */
  name: string;
  question?: { text: string };
  plan?: unknown;
}

/** The prompt has waited for input (Claude Code's `idle_prompt`, its wording). */
export const IDLE_NOTICE = "codewhale is waiting for your input";

export function askNotice(ask: AskShape): { type: NotificationType; message: string } {
  if (ask.question) {
    return {
      type: "elicitation_dialog",
      message: `codewhale has a question: ${ask.question.text}`,
    };
  }
  if (ask.plan)
    return { type: "permission_prompt", message: "codewhale has a plan for you to approve" };
  return {
    type: "permission_prompt",
    message: `codewhale needs your permission to use ${ask.name}`,
  };
}
