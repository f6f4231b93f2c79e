// Loads a provider kind's SDK and the HTTP client ahead of its first request, so an
// interactive session's first prompt does not wait for them (each adapter imports its SDK
// lazily, inside its stream function, to keep start-up fast). Called by Agent.preload.
import { providerFetch } from "./http-client.ts";
import type { ProviderApi } from "./types.ts";

export async function preloadProvider(kind: ProviderApi): Promise<void> {
  const sdk = kind === "anthropic" ? import("@anthropic-ai/sdk") : import("openai");
  await Promise.all([sdk, providerFetch()]);
}
