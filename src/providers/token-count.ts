// Counting tokens offline: gpt-tokenizer's o200k_base, loaded on first use (about 0.3 s), so a
// run that never needs a count never pays for it. The compaction estimate (agent/) and
// `sessions stats` (present/) count with it.
import { createRequire } from "node:module";
import type { HistoryMessage } from "../session/derive.ts";
import type { JsonValue } from "../session/events.ts";
import { readNative } from "./neutral.ts";

/** The tokenizer the offline counts use. */
export const TOKENIZER = "gpt-tokenizer o200k_base";

interface Encoding {
  countTokens(text: string): number;
  isWithinTokenLimit(text: string, limit: number): false | number;
}

let encoding: Encoding | null = null;

function load(): Encoding {
  if (encoding) return encoding;
  // Required, not imported: the bundle runs as a vm script without dynamic import (see
  // runner/terminal-screen.ts); the package stays out of the bundle.
  const requireFn = typeof require === "function" ? require : createRequire(import.meta.url);
  encoding = requireFn("gpt-tokenizer/encoding/o200k_base") as Encoding;
  return encoding;
}

/** The tokens of `text`. */
export function countTokens(text: string): number {
  return text === "" ? 0 : load().countTokens(text);
}

/**
 * True when `text` has more than `limit` tokens. Every token covers at least one byte, so a
 * text of at most `limit` bytes is never counted; a longer one is counted only up to the limit.
 */
export function exceedsTokens(text: string, limit: number): boolean {
  if (text.length <= limit && Buffer.byteLength(text) <= limit) return false;
  return load().isWithinTokenLimit(text, limit) === false;
}

/** The text of one message that reaches the model: prompts, answers, thinking, calls, results. */
export function messageText(message: HistoryMessage): string {
  if (message.role === "user") return message.text;
  if (message.role === "tool") return message.content;
  return assistantText(message.content);
}

/** The text of an assistant message's native content: answers, thinking and tool calls. */
export function assistantText(content: JsonValue[]): string {
  return readNative(content)
    .map((block) => (block.kind === "tool_call" ? `${block.name} ${block.arguments}` : block.text))
    .join("\n");
}
