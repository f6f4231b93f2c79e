// The Anthropic token-counting endpoint (`POST /v1/messages/count_tokens`): the exact input
// tokens of a request body as the Messages adapter would send it. Never throws: any failure
// (no endpoint behind a proxy, a timeout, a refusal) is null and the caller keeps its own
// estimate. Called through index.ts's `countTokens` by the compaction check (agent/turn.ts).
import type { MessageCountTokensParams } from "@anthropic-ai/sdk/resources/messages/messages";
import { createAnthropicClient } from "./anthropic-client.ts";
import { buildAnthropicBody } from "./anthropic-request.ts";
import type { ProviderConfig, ProviderRequest } from "./types.ts";

/** A count that takes longer than this is not worth waiting for: the estimate stands. */
const COUNT_TIMEOUT_MS = 10_000;

export async function countAnthropicTokens(
  config: ProviderConfig,
  request: ProviderRequest,
): Promise<number | null> {
  // Bedrock has no count route: the caller's estimate stands.
  if (config.cloud?.platform === "bedrock") return null;
  try {
    const client = await createAnthropicClient(config, COUNT_TIMEOUT_MS);
    const { stream: _stream, max_tokens: _max, ...body } = buildAnthropicBody(config, request);
    const params = body as unknown as MessageCountTokensParams;
    const counted = await client.messages.countTokens(params, { signal: request.signal });
    return Number.isInteger(counted.input_tokens) ? counted.input_tokens : null;
  } catch {
    return null;
  }
}
