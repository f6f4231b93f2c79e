// Why a completed turn has no answer, read from its last assistant message: the model refused
// (Anthropic `stop_reason: refusal`, a Chat Completions `refusal` field, a Responses `refusal`
// part), a content filter stopped it (`content_filter` as finish reason or as a Responses
// `incomplete_details.reason`), or it said nothing. exec shows it and exits 3 (cli/exec-output.ts).
import { readNative } from "../providers/neutral.ts";
import type { EventOf, JsonValue } from "../session/events.ts";

export type MissingAnswer = "refusal" | "content_filter" | "empty";

/** The one line a person reads for each, after `codewhale: `. */
export const MISSING_ANSWER_LINE: Readonly<Record<MissingAnswer, string>> = {
  refusal: "the model refused to answer (stop_reason refusal)",
  content_filter: "the provider's content filter stopped the answer (stop_reason content_filter)",
  empty: "the model's answer was empty (stop_reason empty)",
};

/** Null when the message answers: it has text or tool calls, and no refusal or filter stopped it. */
export function missingAnswer(message: EventOf<"assistant/message">): MissingAnswer | null {
  if (message.stop_reason === "refusal" || message.content.some(isRefusal)) return "refusal";
  if (message.stop_reason === "content_filter") return "content_filter";
  const answered = readNative(message.content).some(
    (block) => block.kind === "tool_call" || (block.kind === "text" && block.text.trim() !== ""),
  );
  return answered ? null : "empty";
}

/** A Chat Completions message with a `refusal`, or a Responses message with a refusal part. */
function isRefusal(item: JsonValue): boolean {
  if (!isObject(item)) return false;
  if (typeof item.refusal === "string" && item.refusal !== "") return true;
  const parts = Array.isArray(item.content) ? item.content : [];
  return parts.some((part) => isObject(part) && part.type === "refusal");
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
