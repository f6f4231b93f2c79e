// Turns a composed `ask` into a decision: the effective call (and, for a rewritten call, the
// original arguments) goes to the session's one AskFunction, which puts it on the bus as
// `agent/ask` and waits for a surface's answer (pending-asks.ts). Called by the loop
// (pre-execute.ts) after composePreExecute.
import type { ToolTraits } from "../permissions/index.ts";
import type { ToolDecision } from "../session/events.ts";
import type { AskFunction } from "./pending-asks.ts";
import type { ComposedDecision } from "./pre-execute-compose.ts";

export interface ResolvedDecision {
  decision: ToolDecision;
  /** True when the user allowed the call for the rest of the session. */
  grantForSession: boolean;
}

export async function resolveAsk(
  composed: ComposedDecision,
  call: { callId: string; name: string; tool: ToolTraits },
  ask: AskFunction,
): Promise<ResolvedDecision> {
  if (composed.decision.outcome !== "ask") {
    return { decision: composed.decision, grantForSession: false };
  }
  const answer = await ask({
    callId: call.callId,
    name: call.name,
    tool: call.tool,
    arguments: composed.effectiveArguments,
    reason: composed.decision.reason ?? "approval required",
    askedBy: {
      by: composed.decision.by,
      ...(composed.decision.rule ? { rule: composed.decision.rule } : {}),
    },
    ...(composed.originalArguments === undefined
      ? {}
      : { originalArguments: composed.originalArguments }),
    ...(composed.rewrittenBy ? { rewrittenBy: composed.rewrittenBy } : {}),
    ...(composed.rewriteReason ? { rewriteReason: composed.rewriteReason } : {}),
  });
  return {
    decision: { outcome: answer.outcome, by: answer.by, reason: answer.reason },
    grantForSession: answer.outcome === "allow" && answer.scope === "session",
  };
}
