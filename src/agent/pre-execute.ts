// The one seam every valid tool call passes between `assistant/message` and `tool/call`, in
// two calls tool-calls.ts makes in order: `decideToolCall` composes the permission rules, the
// plugins' listeners (`tools/pre-execute`) and the PreToolUse hooks (pre-execute-compose.ts,
// which validates a rewrite, once); `answerAsk` puts an `ask` on the bus as `agent/ask`
// (pending-asks.ts), waits for a surface's answer and records a session grant. The result
// fills `tool/call` and says what runs.

import type { ToolTraits } from "../permissions/index.ts";
import { evaluatePermission, prepareBashRules, suggestRule } from "../permissions/index.ts";
import type { JsonValue, ToolDecision } from "../session/events.ts";
import type { Tool } from "../tools/types.ts";
import type { AgentBus } from "./bus-events.ts";
import { resolveAsk } from "./pre-execute-ask.ts";
import type { ComposedDecision, PreExecuteListener } from "./pre-execute-compose.ts";
import { composePreExecute } from "./pre-execute-compose.ts";
import type { SessionGuard } from "./session-guard.ts";

/** A call whose arguments the toolbox parsed and validated (prepare). */
export interface PendingCall {
  callId: string;
  name: string;
  /** The arguments as the model sent them (valid JSON). */
  arguments: JsonValue;
  /** The same arguments as the tool's input parsed them. */
  parsed: unknown;
  tool: Tool;
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
  /** The effective arguments as the tool's input parsed them (set when the call may run). */
  parsed?: unknown;
  /** Why the call was denied; the content of its error result. */
  reason?: string;
}

/** How the permission layer sees a tool: its declared kind and whether it is read-only. */
export function traitsOf(tool: Tool): ToolTraits {
  return { readOnly: tool.readOnly, kind: tool.kind };
}

/** The pre-execute composition of one call; an `ask` stays an ask for `answerAsk`. */
export async function decideToolCall(
  call: PendingCall,
  ctx: PreExecuteContext,
): Promise<ComposedDecision> {
  const { guard } = ctx;
  const tool = traitsOf(call.tool);
  const plugins = await ctx.bus.collect("tools/pre-execute", {
    sessionId: ctx.sessionId,
    cwd: ctx.cwd,
  });
  const listeners: PreExecuteListener[] = [...plugins, ...guard.hooks.preToolUseListeners()];
  // Bash rules read the command with a parser loaded on first need; evaluation is synchronous.
  await prepareBashRules(call.name, guard.permissions);
  return composePreExecute({
    call: { callId: call.callId, name: call.name, arguments: call.arguments },
    check: (args) => call.tool.input.check(args),
    permissions: (c) => evaluatePermission({ ...c, tool }, guard.permissions, guard.context),
    listeners,
  });
}

/**
 * Settles an `ask` through the session's asks (`guard.ask`: an `agent/ask` event any surface
 * answers; any other verdict passes through) and records a grant the user gave for the
 * session. Says which parsed arguments run.
 */
export async function answerAsk(
  call: PendingCall,
  composed: ComposedDecision,
  guard: SessionGuard,
): Promise<CallDecision> {
  const tool = traitsOf(call.tool);
  const asked = { callId: call.callId, name: call.name, tool };
  const { decision, grantForSession } = await resolveAsk(composed, asked, guard.ask);
  if (grantForSession) {
    const granted = { name: call.name, arguments: composed.effectiveArguments, tool };
    guard.grant(suggestRule(granted, guard.context));
  }
  if (decision.outcome === "deny") {
    return { ...composed, decision, reason: decision.reason ?? "denied" };
  }
  const rewritten = composed.originalArguments !== undefined;
  return { ...composed, decision, parsed: rewritten ? composed.rewrittenParsed : call.parsed };
}
