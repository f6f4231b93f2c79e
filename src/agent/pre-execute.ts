// The one seam every tool call passes between `assistant/message` and `tool/call`: decides
// whether it runs and with which arguments. Today it asks the `tools/pre-execute` bus
// listeners (none are registered by default) and otherwise allows, by "default".
import type { JsonValue, ToolDecision } from "../session/events.ts";
import type { AgentBus } from "./bus-events.ts";

export interface PendingCall {
  callId: string;
  name: string;
  /** Validated arguments, as the model sent them. */
  arguments: JsonValue;
}

export interface PreExecuteContext {
  bus: AgentBus;
  sessionId: string;
  cwd: string;
}

export interface CallDecision {
  decision: ToolDecision;
  /** What runs and what `tool/call.arguments` records. */
  effectiveArguments: JsonValue;
  /** Set only when the arguments were rewritten. */
  originalArguments?: JsonValue;
  rewrittenBy?: string;
  rewriteReason?: string;
  /** Why the call was denied; the content of its error result. */
  reason?: string;
}

export async function decideToolCall(
  call: PendingCall,
  ctx: PreExecuteContext,
): Promise<CallDecision> {
  const verdict = await ctx.bus.serial("tools/pre-execute", {
    ...call,
    sessionId: ctx.sessionId,
    cwd: ctx.cwd,
  });
  if (verdict?.outcome === "deny") {
    const reason = verdict.reason ?? "denied";
    return {
      decision: { outcome: "deny", by: verdict.by ?? "hook", reason },
      effectiveArguments: call.arguments,
      reason,
    };
  }
  return { decision: { outcome: "allow", by: "default" }, effectiveArguments: call.arguments };
}
