// The HTTP client the provider SDKs send their requests through: node-fetch, over node:http,
// in place of the SDKs' default (Node's built-in fetch), which parses responses in WebAssembly
// whose background compile a short run waits for at exit. Loaded lazily, like the SDKs
// (http-fetch.ts, a chunk of its own). Why:
// docs/rfc/implemented/architecture/2026-11-30-start-up-path.md.

/** The part of the Fetch API's headers the adapters read. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** The `fetch` handed to the SDKs, typed as theirs. */
export async function providerFetch(): Promise<typeof fetch> {
  // Named, not default: through a chunk, an ES `default` is the whole module.
  const { fetch: nodeFetch } = await import("./http-fetch.ts");
  return nodeFetch as unknown as typeof fetch;
}

/** True for a Fetch API headers object of any implementation (the SDKs', node-fetch's). */
export function isHeaderReader(value: unknown): value is HeaderReader {
  return (
    typeof value === "object" &&
    value !== null &&
    "get" in value &&
    typeof (value as { get: unknown }).get === "function"
  );
}
