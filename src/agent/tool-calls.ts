// The tool calls of one assistant message, in two phases: record (check the tool and its
// arguments, pass the pre-execute seam, append `tool/call`, synced), then execute each from
// its recorded arguments and append `tool/result`. Refused and invalid calls get an error
// result the model reads; cancellation ends running calls as interrupted, skips the rest.
import { errorMessage } from "../errors.ts";
import type { ModelToolCall } from "../providers/index.ts";
import type { EventInput, JsonValue } from "../session/events.ts";
import type { AnyTool, ToolResult } from "../tools/types.ts";
import { type CallDecision, decideToolCall } from "./pre-execute.ts";
import type { RunContext } from "./run-context.ts";
import { interruptedResult } from "./session-open.ts";

export const CANCELLED_RESULT = "The tool call was cancelled by the user before it finished.";
export const NOT_RUN_RESULT = "The tool call was not run: the user cancelled the turn.";

/** A recorded call that may run: its tool and the arguments its `tool/call` records. */
export interface PreparedCall {
  callId: string;
  tool: AnyTool;
  args: unknown;
}

/**
 * Records a `tool/call` for every call of the message (and the error result of each refused
 * or invalid one) before any runs, so the history never has a gap between the assistant
 * message and its calls. Returns the calls to execute, in order.
 */
export async function recordToolCalls(
  ctx: RunContext,
  turn: number,
  step: number,
  calls: readonly ModelToolCall[],
  signal: AbortSignal,
): Promise<PreparedCall[]> {
  const prepared: PreparedCall[] = [];
  for (const call of calls) {
    if (signal.aborted) recordNotRun(ctx, turn, step, call);
    else {
      const ready = await recordOne(ctx, turn, step, call);
      if (ready) prepared.push(ready);
    }
  }
  return prepared;
}

/** Executes recorded calls in order; after a cancel, the rest end as not run. */
export async function executeToolCalls(
  ctx: RunContext,
  prepared: readonly PreparedCall[],
  signal: AbortSignal,
): Promise<void> {
  for (const call of prepared) {
    if (signal.aborted) {
      ctx.writer.append(interruptedResult(call.callId, NOT_RUN_RESULT));
      continue;
    }
    const result = await execute(call.tool, call.args, ctx, call.callId, signal);
    if (result === "cancelled") ctx.writer.append(interruptedResult(call.callId, CANCELLED_RESULT));
    else ctx.writer.append(resultEvent(call.callId, result));
  }
}

async function recordOne(
  ctx: RunContext,
  turn: number,
  step: number,
  call: ModelToolCall,
): Promise<PreparedCall | null> {
  const checked = ctx.tools.check(call.name, call.arguments);
  const decided: CallDecision = checked.ok
    ? await decideToolCall({ callId: call.id, name: call.name, arguments: checked.args }, ctx)
    : {
        decision: { outcome: "deny", by: "default", reason: checked.reason },
        effectiveArguments: checked.args,
        reason: checked.reason,
      };
  ctx.writer.append(callEvent(turn, step, call, decided));
  if (decided.decision.outcome !== "allow" || !checked.ok) {
    const reason = decided.reason ?? decided.decision.reason ?? "the call was refused";
    ctx.writer.append(resultEvent(call.id, { content: reason, isError: true }));
    return null;
  }
  // Execute exactly what was recorded: a rewrite is validated again, never bypassed.
  const effective =
    decided.originalArguments === undefined
      ? checked
      : recheck(ctx, call, decided.effectiveArguments);
  if (!effective.ok) {
    ctx.writer.append(resultEvent(call.id, { content: effective.reason, isError: true }));
    return null;
  }
  return { callId: call.id, tool: effective.tool, args: effective.parsed };
}

function recheck(ctx: RunContext, call: ModelToolCall, args: JsonValue) {
  return ctx.tools.check(call.name, JSON.stringify(args));
}

/** Runs the tool; resolves "cancelled" as soon as the signal aborts, even if the tool lingers. */
async function execute(
  tool: AnyTool,
  args: unknown,
  ctx: RunContext,
  callId: string,
  signal: AbortSignal,
): Promise<ToolResult | "cancelled"> {
  let onAbort = () => {};
  const aborted = new Promise<"cancelled">((resolve) => {
    onAbort = () => resolve("cancelled");
    signal.addEventListener("abort", onAbort, { once: true });
  });
  const toolCtx = { signal, cwd: ctx.cwd, sessionId: ctx.sessionId, callId };
  const running = tool.execute(args, toolCtx).catch(
    (error: unknown): ToolResult => ({
      content: `tool ${tool.name} failed: ${errorMessage(error)}`,
      isError: true,
    }),
  );
  try {
    const result = await Promise.race([running, aborted]);
    return signal.aborted ? "cancelled" : result;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

function recordNotRun(ctx: RunContext, turn: number, step: number, call: ModelToolCall): void {
  const checked = ctx.tools.check(call.name, call.arguments);
  const decided: CallDecision = {
    decision: { outcome: "deny", by: "user", reason: "cancelled" },
    effectiveArguments: checked.args,
  };
  ctx.writer.append(callEvent(turn, step, call, decided));
  ctx.writer.append(interruptedResult(call.id, NOT_RUN_RESULT));
}

function callEvent(
  turn: number,
  step: number,
  call: ModelToolCall,
  decided: CallDecision,
): EventInput {
  return {
    type: "tool/call",
    turn,
    step,
    call_id: call.id,
    name: call.name,
    arguments: decided.effectiveArguments,
    ...(decided.originalArguments === undefined
      ? {}
      : { original_arguments: decided.originalArguments }),
    ...(decided.rewrittenBy === undefined ? {} : { rewritten_by: decided.rewrittenBy }),
    ...(decided.rewriteReason === undefined ? {} : { rewrite_reason: decided.rewriteReason }),
    decision: decided.decision,
  };
}

function resultEvent(callId: string, result: ToolResult): EventInput {
  const bytes = Buffer.byteLength(result.content);
  return {
    type: "tool/result",
    call_id: callId,
    content: result.content,
    is_error: result.isError ?? false,
    original_bytes: result.originalBytes ?? bytes,
    delivered_bytes: result.deliveredBytes ?? bytes,
    truncated: result.truncated ?? false,
    spill_path: result.spillPath ?? null,
    policy_errors: result.policyErrors ?? [],
  };
}
