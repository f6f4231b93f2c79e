// "Run again outside the sandbox": a command the OS sandbox refused (a write, or a connection the
// proxy refused; the tool sets `sandboxRefused`) is offered to the user as an ask through the
// session's asks (pending-asks.ts, options allow once or deny). Allowed, the same call runs again
// unconfined and its one result holds both runs; denied, the first result says so. exec answers
// these asks itself (cli/exec-asks.ts). Called by tool-calls.ts after a call ran.
import type { JsonValue } from "../session/events.ts";
import type { CallPresentation } from "../tools/presentation.ts";
import type { DeliveredResult, Tool } from "../tools/types.ts";
import type { RunContext } from "./run-context.ts";

/** A call that ran, as tool-calls.ts knows it. */
interface RanCall {
  callId: string;
  name: string;
  tool: Tool;
  args: unknown;
  recorded: JsonValue;
  /** The allow rule that let the call run, when a rule did (exec escalates only then). */
  allowedBy?: string;
}

interface EscalationInput {
  ctx: RunContext;
  call: RanCall;
  turn: number;
  signal: AbortSignal;
  presentation: CallPresentation;
  first: DeliveredResult;
  /** Runs the call again outside the sandbox. */
  again(): Promise<DeliveredResult | { cancelled: DeliveredResult | null }>;
}

/** The call's result after the offer: the first run's, or both runs' when allowed. */
export async function offerToRunOutside(
  input: EscalationInput,
): Promise<DeliveredResult | { cancelled: DeliveredResult | null }> {
  const { ctx, call, first } = input;
  const reason = `the OS sandbox refused ${first.sandboxRefused}: run it again outside the sandbox, with your full rights?`;
  const asked = {
    turn: input.turn,
    signal: input.signal,
    callId: call.callId,
    name: call.name,
    tool: { readOnly: call.tool.readOnly, kind: call.tool.kind },
    presentation: input.presentation,
    escalation: call.allowedBy === undefined ? {} : { rule: call.allowedBy },
  };
  const decided = await ctx.guard.asks.settle(asked, {
    decision: { outcome: "ask", by: "default", reason },
    arguments: call.recorded,
    parsed: call.args,
    notices: [],
    context: [],
  });
  if (input.signal.aborted) return first;
  if (decided.decision.outcome !== "allow") {
    const why = decided.decision.reason ?? "denied";
    return appended(first, `[sandbox: not run again outside the sandbox: ${why}]`);
  }
  const second = await input.again();
  if ("cancelled" in second) return second;
  const heading = `[sandbox: run again outside the sandbox, allowed by ${decided.decision.by}]`;
  return joined(first, heading, second);
}

function appended(result: DeliveredResult, line: string): DeliveredResult {
  const content = `${result.content}\n${line}`;
  return { ...result, content, deliveredBytes: Buffer.byteLength(content) };
}

/** One result of two runs: the first's text, the heading, then the second's; its receipt. */
function joined(first: DeliveredResult, heading: string, second: DeliveredResult): DeliveredResult {
  const content = `${first.content}\n\n${heading}\n${second.content}`;
  return {
    ...second,
    content,
    originalBytes: first.originalBytes + second.originalBytes,
    deliveredBytes: Buffer.byteLength(content),
    truncated: first.truncated || second.truncated,
    spillPath: second.spillPath ?? first.spillPath,
    policyErrors: [...first.policyErrors, ...second.policyErrors],
  };
}
