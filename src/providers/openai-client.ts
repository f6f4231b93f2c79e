// The OpenAI SDK client both OpenAI adapters use, loaded lazily (the import is slow). The key
// is passed explicitly and organization/project are nulled so the SDK reads no environment;
// the SDK's own retries are off because the loop owns retries. Requests go through
// http-client.ts.
import { providerFetch } from "./http-client.ts";
import type { ProviderConfig } from "./types.ts";

export const DEFAULT_OPENAI_URL = "https://api.openai.com/v1";

export async function createOpenAIClient(config: ProviderConfig) {
  // Named, not default: the SDK is a chunk of its own in the bundle (scripts/build.mjs).
  const [{ OpenAI }, fetch] = await Promise.all([import("openai"), providerFetch()]);
  return new OpenAI({
    fetch,
    apiKey: config.apiKey,
    baseURL: config.baseUrl ?? DEFAULT_OPENAI_URL,
    organization: null,
    project: null,
    maxRetries: 0,
    ...(config.headers ? { defaultHeaders: config.headers } : {}),
  });
}
