// How a codewhale turn's end reads as an ACP stop reason: completed turns by the provider's own
// stop reason of the last answer (a cut answer is `max_tokens`, a refused one `refusal`), the
// step limit and the budget as `max_turn_requests`, cancel as `cancelled`. A failed turn has
// no stop reason: acp-session.ts answers the prompt with an error carrying its one line.
import type { StopReason } from "@agentclientprotocol/sdk";
import type { TurnOutcome } from "../agent/index.ts";

/** Native stop reasons (Anthropic, Chat Completions, Responses) of an answer cut by its limit. */
const CUT = new Set(["max_tokens", "length", "max_output_tokens", "model_context_window_exceeded"]);
const REFUSED = new Set(["refusal", "content_filter"]);

export function stopReasonOf(
  outcome: TurnOutcome,
  lastStopReason: string | null | undefined,
): StopReason | undefined {
  switch (outcome.reason) {
    case "completed":
      if (lastStopReason && CUT.has(lastStopReason)) return "max_tokens";
      if (lastStopReason && REFUSED.has(lastStopReason)) return "refusal";
      return "end_turn";
    case "cancelled":
      return "cancelled";
    case "max_steps":
    case "max_budget":
      return "max_turn_requests";
    default:
      return undefined;
  }
}
