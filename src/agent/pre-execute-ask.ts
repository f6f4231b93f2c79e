// Resolves a composed `ask` through the surface's AskResolver (terminal prompt, ACP, or the
// exec resolver that denies with instructions). The resolver sees the effective call and, for
// a rewritten call, the original arguments too. Called by the loop after composePreExecute.
import type { AskResolver, ToolTraits } from "../permissions/index.ts";
import type { ToolDecision } from "../session/events.ts";
import type { ComposedDecision } from "./pre-execute-compose.ts";

export interface ResolvedDecision {
  decision: ToolDecision;
  /** True when the user allowed the call for the rest of the session. */
  grantForSession: boolean;
}

export async function resolveAsk(
  composed: ComposedDecision,
  call: { callId: string; name: string; tool: ToolTraits },
  resolver: AskResolver,
): Promise<ResolvedDecision> {
  if (composed.decision.outcome !== "ask") {
    return { decision: composed.decision, grantForSession: false };
  }
  const reason = composed.decision.reason ?? "approval required";
  const answer = await resolver(
    {
      callId: call.callId,
      name: call.name,
      tool: call.tool,
      arguments: composed.effectiveArguments,
      askedBy: {
        by: composed.decision.by,
        ...(composed.decision.rule ? { rule: composed.decision.rule } : {}),
      },
      ...(composed.rewrittenBy ? { rewrittenBy: composed.rewrittenBy } : {}),
      ...(composed.rewriteReason ? { rewriteReason: composed.rewriteReason } : {}),
    },
    reason,
    composed.originalArguments,
  );
  return {
    decision: { outcome: answer.outcome, by: answer.by, reason: answer.reason ?? reason },
    grantForSession: answer.outcome === "allow" && answer.scope === "session",
  };
}
