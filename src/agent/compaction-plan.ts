// Where a compaction cuts the history (pure): the newest messages that fit the keep budget
// stay verbatim, starting at an assistant or user message (never at a tool result, so every
// kept tool call keeps its result and every summarised one is summarised with it); the last
// user prompt is kept too when the cut passes it. Called by compaction.ts.
import { countTokens, messageText } from "../providers/token-count.ts";
import type { HistoryMessage } from "../session/derive.ts";

export interface CompactionPlan {
  /** The messages the summary replaces, oldest first (the previous summary included). */
  replaced: HistoryMessage[];
  /** The messages kept verbatim after the summary. */
  kept: HistoryMessage[];
  /** The last user prompt, when it is among the replaced messages. */
  user: HistoryMessage | undefined;
}

/**
 * The plan, or null when nothing can be summarised (the history holds nothing but the
 * previous summary and the last prompt, which would be kept anyway).
 */
export function planCompaction(
  messages: readonly HistoryMessage[],
  keepTokens: number,
): CompactionPlan | null {
  let from = messages.length;
  let kept = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as HistoryMessage;
    kept += countTokens(messageText(message));
    if (kept > keepTokens) break;
    from = i;
  }
  // The previous summary is never kept as such: it is what the new one rewrites.
  if (from === 0) from = 1;
  while (from < messages.length && isSummary(messages[from])) from++;
  while (from < messages.length && messages[from]?.role === "tool") from++;
  const replaced = messages.slice(0, from);
  const user = lastPrompt(messages);
  // Nothing but the previous summary and the prompt (kept anyway): nothing to summarise.
  if (replaced.every((message) => isSummary(message) || message === user)) return null;
  return {
    replaced,
    kept: messages.slice(from),
    user: user !== undefined && replaced.includes(user) ? user : undefined,
  };
}

/** One of the messages standing for the previous summary (compaction-summary.ts). */
function isSummary(message: HistoryMessage | undefined): boolean {
  return message !== undefined && message.role !== "tool" && message.summary === true;
}

/** The newest user prompt: not steering, not a note, not a summary. */
function lastPrompt(messages: readonly HistoryMessage[]): HistoryMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as HistoryMessage;
    if (message.role === "user" && !message.steering && !message.note && !message.summary) {
      return message;
    }
  }
  return undefined;
}
