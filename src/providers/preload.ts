// Loads a provider kind's SDK and the HTTP client ahead of its first request, so an
// interactive session's first prompt does not wait for them (each adapter imports its SDK
// lazily, inside its stream function, to keep start-up fast). Called by Agent.preload.
import { providerFetch } from "./http-client.ts";
import type { ProviderApi } from "./types.ts";

/** `between` runs after the SDK and before the HTTP client (a surface lets input in). */
export async function preloadProvider(
  kind: ProviderApi,
  between: () => Promise<unknown> = async () => undefined,
): Promise<void> {
  await (kind === "anthropic" ? import("@anthropic-ai/sdk") : import("openai"));
  await between();
  await providerFetch();
}
