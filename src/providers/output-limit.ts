// A response that stops at its output token limit (Anthropic `max_tokens`, Chat Completions
// `length`, Responses `max_output_tokens`) may stop inside the tool call it was writing. Each
// adapter marks that call (its last) as cut when it finishes; the loop answers it with an error
// result instead of running it (agent/tool-calls.ts).
import type { ModelToolCall } from "./types.ts";

const OUTPUT_LIMIT_STOPS: ReadonlySet<string> = new Set([
  "max_tokens",
  "length",
  "max_output_tokens",
]);

/** True when a stop reason says the response ran out of output tokens. */
export function stoppedAtOutputLimit(stopReason: string | null): boolean {
  return stopReason !== null && OUTPUT_LIMIT_STOPS.has(stopReason);
}

/** The calls, the last marked `cut` when the response stopped at its output limit. */
export function markCutCall(calls: ModelToolCall[], stopReason: string | null): ModelToolCall[] {
  const last = calls.at(-1);
  if (!last || !stoppedAtOutputLimit(stopReason)) return calls;
  return [...calls.slice(0, -1), { ...last, cut: true }];
}
