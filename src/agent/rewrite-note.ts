// The short note that starts the `tool/result` content the model receives when a call was
// rewritten, so the model knows what actually ran: the model's `assistant/message` stays
// verbatim, and this note states the effective arguments. Called by the loop.
import type { JsonValue } from "../session/events.ts";

/** Longest argument JSON shown in the note; the full arguments are in `tool/call`. */
const MAX_ARGUMENTS_CHARS = 400;

export function rewriteNote(
  name: string,
  effectiveArguments: JsonValue,
  rewrittenBy: string,
  reason: string | undefined,
): string {
  const json = JSON.stringify(effectiveArguments);
  const shown = json.length > MAX_ARGUMENTS_CHARS ? `${json.slice(0, MAX_ARGUMENTS_CHARS)}…` : json;
  const why = reason ? ` (${reason})` : "";
  return `[codewhale] This ${name} call was rewritten by ${rewrittenBy}${why} before it ran.\nIt ran with: ${shown}`;
}
