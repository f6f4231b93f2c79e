// The provider registry: one stream function per wire format. Free of SDK imports: each
// adapter imports its SDK lazily inside its stream function, so startup stays fast.
// The loop calls `streamFor(config.kind)` or `stream(config, request)`.
import { streamAnthropic } from "./anthropic.ts";
import { countAnthropicTokens } from "./anthropic-count.ts";
import { streamOpenAIChat } from "./openai-chat.ts";
import { streamOpenAIResponses } from "./openai-responses.ts";
import { countResponsesTokens } from "./openai-responses-count.ts";
import type {
  ProviderApi,
  ProviderConfig,
  ProviderRequest,
  StreamFunction,
  StreamPart,
} from "./types.ts";

export const streamFunctions: Readonly<Record<ProviderApi, StreamFunction>> = {
  anthropic: streamAnthropic,
  "openai-chat": streamOpenAIChat,
  "openai-responses": streamOpenAIResponses,
};

export function streamFor(kind: ProviderApi): StreamFunction {
  return streamFunctions[kind];
}

/** Streams one request through the adapter of the config's kind. Never throws once called. */
export function stream(
  config: ProviderConfig,
  request: ProviderRequest,
): AsyncIterable<StreamPart> {
  return streamFunctions[config.kind](config, request);
}

/** Exact input tokens of a request from the provider, or null (see `countFor`). */
export type CountFunction = (
  config: ProviderConfig,
  request: ProviderRequest,
) => Promise<number | null>;

/**
 * The provider's token-counting endpoint for a wire format, or null where none exists (Chat
 * Completions servers have none). Never throws.
 */
export function countFor(kind: ProviderApi): CountFunction | null {
  if (kind === "anthropic") return countAnthropicTokens;
  if (kind === "openai-responses") return countResponsesTokens;
  return null;
}

export { CANCELLED_MESSAGE } from "./failure.ts";
export { fetchModelList } from "./model-list.ts";
export type { ModelInfo, ModelLookup, ModelOverride, Price } from "./models.ts";
export {
  compactionThresholdOf,
  contextWindowOf,
  costOf,
  formatCost,
  formatCostDetail,
  MODEL_TABLE_DATE,
  modelInfo,
  takesImages,
} from "./models.ts";
export { preloadProvider } from "./preload.ts";
export type * from "./types.ts";
