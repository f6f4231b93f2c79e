// The one seam every valid tool call passes between `assistant/message` and `tool/call`:
// composes the permission rules, the plugins' listeners (`tools/pre-execute`), then the
// PreToolUse hooks (pre-execute-compose.ts), resolves an `ask` through the surface's resolver
// and records a session grant. The result fills `tool/call`; tool-calls.ts calls it.

import { evaluatePermission, prepareBashRules, suggestRule } from "../permissions/index.ts";
import type { JsonValue, ToolDecision } from "../session/events.ts";
import type { AnyTool } from "../tools/types.ts";
import type { AgentBus } from "./bus-events.ts";
import { resolveAsk } from "./pre-execute-ask.ts";
import type { ComposedDecision, PreExecuteListener } from "./pre-execute-compose.ts";
import { composePreExecute } from "./pre-execute-compose.ts";
import type { SessionGuard } from "./session-guard.ts";

export interface PendingCall {
  callId: string;
  name: string;
  /** Validated arguments, as the model sent them. */
  arguments: JsonValue;
  tool: AnyTool;
}

export interface PreExecuteContext {
  bus: AgentBus;
  sessionId: string;
  cwd: string;
  guard: SessionGuard;
}

export interface CallDecision extends Partial<Omit<ComposedDecision, "decision">> {
  decision: ToolDecision;
  /** What runs and what `tool/call.arguments` records. */
  effectiveArguments: JsonValue;
  /** Why the call was denied; the content of its error result. */
  reason?: string;
}

export async function decideToolCall(
  call: PendingCall,
  ctx: PreExecuteContext,
): Promise<CallDecision> {
  const { guard } = ctx;
  const tool = { readOnly: call.tool.readOnly };
  const plugins = await ctx.bus.collect("tools/pre-execute", {
    sessionId: ctx.sessionId,
    cwd: ctx.cwd,
  });
  const listeners: PreExecuteListener[] = [...plugins, ...guard.hooks.preToolUseListeners()];
  // Bash rules read the command with a parser loaded on first need; evaluation is synchronous.
  await prepareBashRules(call.name, guard.permissions);
  const composed = await composePreExecute({
    call: { callId: call.callId, name: call.name, arguments: call.arguments },
    validate: (args) => schemaProblem(call.tool, args),
    permissions: (c) => evaluatePermission({ ...c, tool }, guard.permissions, guard.context),
    listeners,
  });
  const asked = { callId: call.callId, name: call.name, tool };
  const { decision, grantForSession } = await resolveAsk(composed, asked, guard.askResolver);
  if (grantForSession) {
    const granted = { name: call.name, arguments: composed.effectiveArguments, tool };
    guard.grant(suggestRule(granted, guard.context));
  }
  const denied = decision.outcome === "deny" ? (decision.reason ?? "denied") : undefined;
  return { ...composed, decision, ...(denied === undefined ? {} : { reason: denied }) };
}

/** The first schema issue as `path: message`, or undefined when the arguments are valid. */
function schemaProblem(tool: AnyTool, args: JsonValue): string | undefined {
  const result = tool.schema.safeParse(args);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  if (!issue) return "invalid";
  return issue.path.length > 0
    ? `${issue.path.map(String).join(".")}: ${issue.message}`
    : issue.message;
}
