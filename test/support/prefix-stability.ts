// Helpers for the prefix-stability checks on recorded request bodies: the history array of
// request N must be a byte prefix of request N+1's, for every provider kind.
import assert from "node:assert/strict";
import type { ProviderApi } from "../../src/providers/types.ts";

/** Where each wire format keeps the conversation in a request body. */
export const HISTORY_KEY: Record<ProviderApi, string> = {
  anthropic: "messages",
  "openai-chat": "messages",
  "openai-responses": "input",
};

/**
 * Anthropic's moving cache breakpoint (`cache_control` on the newest message) is the one
 * permitted difference between requests: it marks what to cache, not what the model reads.
 */
export function comparable(kind: ProviderApi, raw: string): string {
  return kind === "anthropic" ? raw.replaceAll(',"cache_control":{"type":"ephemeral"}', "") : raw;
}

/** The raw body up to (not including) the closing bracket of its history array. */
export function historyPrefix(kind: ProviderApi, raw: string): string {
  const body = JSON.parse(raw) as Record<string, unknown>;
  const history = JSON.stringify(body[HISTORY_KEY[kind]]);
  const at = raw.indexOf(history);
  assert.ok(at > 0, "the history array appears verbatim in the raw body");
  return raw.slice(0, at + history.length - 1);
}
