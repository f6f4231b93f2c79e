// The OpenAI SDK client both OpenAI adapters use, loaded lazily (the import is slow). The key
// is passed explicitly and organization/project are nulled so the SDK reads no environment;
// the SDK's own retries are off because the loop owns retries. Requests go through
// http-client.ts. With an `apiVersion` it is the SDK's Azure client: the model names the
// deployment, the key goes in an `api-key` header, the base URL is the resource's endpoint.
import { providerFetch } from "./http-client.ts";
import type { ProviderConfig } from "./types.ts";

export const DEFAULT_OPENAI_URL = "https://api.openai.com/v1";

export async function createOpenAIClient(config: ProviderConfig) {
  // Named, not default: the SDK is a chunk of its own in the bundle (scripts/build.mjs).
  const [{ OpenAI, AzureOpenAI }, fetch] = await Promise.all([import("openai"), providerFetch()]);
  const options = {
    fetch,
    apiKey: config.apiKey,
    organization: null,
    project: null,
    maxRetries: 0,
    ...(config.headers ? { defaultHeaders: config.headers } : {}),
  };
  if (config.apiVersion === undefined) {
    return new OpenAI({ ...options, baseURL: config.baseUrl ?? DEFAULT_OPENAI_URL });
  }
  // baseURL, not endpoint: given, the SDK reads no OPENAI_BASE_URL or AZURE_OPENAI_ENDPOINT.
  return new AzureOpenAI({
    ...options,
    baseURL: azureBaseUrl(config.baseUrl ?? ""),
    apiVersion: config.apiVersion,
  });
}

/** `https://RESOURCE.openai.azure.com` → `…/openai`, the root of Azure's routes. */
export function azureBaseUrl(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, "");
  return trimmed.endsWith("/openai") ? trimmed : `${trimmed}/openai`;
}
