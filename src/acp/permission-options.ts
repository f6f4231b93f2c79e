// What an `agent/ask` offers an editor as `session/request_permission` options, and what the
// chosen option answers through `agent.answer`: allow once, allow for this session (the ask's
// session rule), reject once, and reject for this session (the bridge then refuses the same
// rule without asking again). A question offers its answers; a plan (plan mode's `exit_plan`)
// offers approve (default mode), approve and accept edits, and keep planning, its plan the
// request's content. A cancelled or unknown answer denies. Used by acp-session.ts.
import type {
  PermissionOption,
  RequestPermissionOutcome,
  ToolCallContent,
} from "@agentclientprotocol/sdk";
import type { AgentAsk, AskDecision } from "../agent/index.ts";
import { terminalSafe, terminalSafeLine } from "../runner/index.ts";

export function permissionOptions(ask: AgentAsk): PermissionOption[] {
  if (ask.question) return questionOptions(ask.question.options);
  if (ask.plan) return PLAN_OPTIONS.map((option) => ({ ...option }));
  const options: PermissionOption[] = [
    { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  ];
  if (ask.options.includes("allow_session") && ask.sessionRule !== undefined) {
    options.push({
      optionId: "allow_session",
      name: `Allow ${terminalSafeLine(ask.sessionRule)} for this session`,
      kind: "allow_always",
    });
  }
  options.push({ optionId: "reject_once", name: "Reject", kind: "reject_once" });
  if (ask.sessionRule !== undefined) {
    options.push({
      optionId: "reject_session",
      name: `Reject ${terminalSafeLine(ask.sessionRule)} for this session`,
      kind: "reject_always",
    });
  }
  return options;
}

/** The decision an editor's answer stands for; `rejectRule` when it rejects for the session. */
export function decisionOf(
  ask: AgentAsk,
  outcome: RequestPermissionOutcome,
): { decision: AskDecision; rejectRule?: string } {
  if (outcome.outcome === "cancelled") {
    const reason = "the permission request was cancelled";
    // Nobody decided on a plan: no feedback of the user's.
    if (ask.plan) return { decision: { outcome: "deny", by: "default", reason } };
    return { decision: { outcome: "deny", reason } };
  }
  const offered = permissionOptions(ask).some((option) => option.optionId === outcome.optionId);
  if (ask.question)
    return { decision: answerOf(ask.question.options, offered ? outcome.optionId : "") };
  if (ask.plan) return { decision: planDecisionOf(offered ? outcome.optionId : "") };
  switch (offered ? outcome.optionId : "") {
    case "allow_once":
      return { decision: { outcome: "allow", scope: "once" } };
    case "allow_session":
      return { decision: { outcome: "allow", scope: "session" } };
    case "reject_once":
      return { decision: { outcome: "deny", reason: "the user rejected this call" } };
    case "reject_session":
      return {
        decision: { outcome: "deny", reason: "the user rejected this call for the session" },
        ...(ask.sessionRule === undefined ? {} : { rejectRule: ask.sessionRule }),
      };
    default:
      return {
        decision: { outcome: "deny", reason: "the editor answered with an option not offered" },
      };
  }
}

/**
 * A question the model asks (`ask_user`): each option as an `allow_once` option (`answer:N`),
 * then "Don't answer". Free text has no place in a permission request: an editor picks.
 */
function questionOptions(choices: readonly string[]): PermissionOption[] {
  const options: PermissionOption[] = choices.map((choice, index) => ({
    optionId: `answer:${index}`,
    name: terminalSafeLine(choice),
    kind: "allow_once",
  }));
  options.push({ optionId: "reject_once", name: "Don't answer", kind: "reject_once" });
  return options;
}

/** The answer a chosen question option stands for. */
function answerOf(choices: readonly string[], optionId: string): AskDecision {
  const index = /^answer:(\d)$/.exec(optionId)?.[1];
  const choice = index === undefined ? undefined : choices[Number(index)];
  if (choice !== undefined) return { outcome: "answer", answer: choice };
  return { outcome: "deny", reason: "the user declined to answer" };
}

/** A plan's options: approve in default mode, approve and accept edits, keep planning. */
const PLAN_OPTIONS: readonly PermissionOption[] = [
  { optionId: "approve", name: "Yes, and continue in default mode", kind: "allow_once" },
  { optionId: "approve_accept_edits", name: "Yes, and accept edits", kind: "allow_always" },
  { optionId: "keep_planning", name: "No, keep planning", kind: "reject_once" },
];

function planDecisionOf(optionId: string): AskDecision {
  if (optionId === "approve") return { outcome: "approve", mode: "default" };
  if (optionId === "approve_accept_edits") return { outcome: "approve", mode: "accept-edits" };
  return { outcome: "deny" };
}

/** A plan as a tool call's content: its Markdown, escaped, for the editor to render. */
export function planContent(plan: string): ToolCallContent[] {
  return [{ type: "content", content: { type: "text", text: terminalSafe(plan) } }];
}
