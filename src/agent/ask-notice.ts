// What a person is told when an ask waits for them: the wording of the terminal's desktop
// notification and of the Notification hook's `message` (Claude Code's wording for a
// permission), and the hook's `notification_type`. Used by agent.ts and the terminal.
import type { NotificationType } from "../hooks/index.ts";
import type { AgentAsk } from "./pending-asks.ts";

export function askNotice(ask: AgentAsk): { type: NotificationType; message: string } {
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
