// The one line that says how a plan was decided (`plan/decided`, plan mode's `exit_plan`):
// approved with the mode the session went on in, kept planning with the user's feedback, or
// not approved because nobody could. Shared by the exports (export-view.ts) and `sessions show`.
import type { EventOf } from "../session/events.ts";

export function planDecisionLine(event: EventOf<"plan/decided">): string {
  if (event.approved) {
    return `Plan approved: the session went on in ${event.mode ?? "default"} mode`;
  }
  if (event.by === "default") return `Plan not approved: ${event.reason ?? "nobody decided"}`;
  return event.feedback === undefined
    ? "Plan not approved: keep planning"
    : `Plan not approved: keep planning, with feedback: ${event.feedback}`;
}
