// The OpenAI Responses token-counting endpoint (`POST /v1/responses/input_tokens`): the exact
// input tokens of a request body as the Responses adapter would send it, without the fields
// that only shape a generation. Never throws: any failure (a server without the route, a
// timeout, a refusal) is null and the caller keeps its own estimate. Called through index.ts's
// `countFor` by the compaction check (agent/turn.ts).
import type { InputTokenCountParams } from "openai/resources/responses/input-tokens";
import { createOpenAIClient } from "./openai-client.ts";
import { buildResponsesBody } from "./openai-responses-request.ts";
import type { ProviderConfig, ProviderRequest } from "./types.ts";

/** A count that takes longer than this is not worth waiting for: the estimate stands. */
const COUNT_TIMEOUT_MS = 10_000;

export async function countResponsesTokens(
  config: ProviderConfig,
  request: ProviderRequest,
): Promise<number | null> {
  try {
    const client = await createOpenAIClient(config);
    // The count takes the request's input, instructions, tools and reasoning; streaming,
    // storage, includes and the output cap are not part of it.
    const {
      stream: _stream,
      store: _store,
      include: _include,
      max_output_tokens: _max,
      ...body
    } = buildResponsesBody(config, request);
    const params = body as unknown as InputTokenCountParams;
    const counted = await client.responses.inputTokens.count(params, {
      signal: request.signal,
      timeout: COUNT_TIMEOUT_MS,
    });
    return Number.isInteger(counted.input_tokens) && counted.input_tokens >= 0
      ? counted.input_tokens
      : null;
  } catch {
    return null;
  }
}
