// The output policy for what hooks say: every text a hook contributes goes through the runner's
// pipeline as tool output does (strip, redact, bound to `[output] max_bytes` with the marker);
// a line for the user is then cut to one line. Applied once per hook run, by run-event.ts.
import type { OutputPolicy } from "../runner/index.ts";
import { applyOutputPolicy } from "../runner/index.ts";
import type { HookOutcome } from "./output.ts";
import { oneLine } from "./output.ts";

/**
 * A text for the model (and the log): stripped, redacted, bounded with the marker, trimmed.
 * Never spilled: a hook's text has no spill file, so the marker says the rest was not saved.
 */
export async function policedText(text: string, policy: OutputPolicy): Promise<string> {
  const result = await applyOutputPolicy(text, { ...policy, spillToTemp: false });
  return result.output.trim();
}

/** A line for the user: the same policy, then the first non-empty line, at most 200 characters. */
export async function policedLine(text: string, policy: OutputPolicy): Promise<string> {
  return oneLine(await policedText(text, policy));
}

/**
 * The outcome with each of its texts policed. A text the policy empties (only escape sequences)
 * counts as absent, or falls back to a plain statement. `updatedInput` is arguments, not text:
 * it is validated against the tool's schema instead.
 */
export async function policeOutcome(
  outcome: HookOutcome,
  policy: OutputPolicy,
  label: string,
): Promise<HookOutcome> {
  const text = (value: string) => policedText(value, policy);
  const { permission, block, stop, additionalContext, error, userMessage, ...rest } = outcome;
  const policed: HookOutcome = rest;
  if (permission) {
    const reason = permission.reason === undefined ? "" : await text(permission.reason);
    policed.permission = { outcome: permission.outcome, ...(reason ? { reason } : {}) };
  }
  if (block) policed.block = { reason: (await text(block.reason)) || `${label} blocked it` };
  if (stop) policed.stop = { reason: (await text(stop.reason)) || `${label} stopped the turn` };
  const context = additionalContext === undefined ? "" : await text(additionalContext);
  if (context) policed.additionalContext = context;
  if (error !== undefined) policed.error = (await policedLine(error, policy)) || label;
  const message = userMessage === undefined ? "" : await policedLine(userMessage, policy);
  if (message) policed.userMessage = message;
  return policed;
}
