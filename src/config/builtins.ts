// The built-in config layers under the user's files: the `anthropic` and `openai` providers,
// and their base URLs from ANTHROPIC_BASE_URL / OPENAI_BASE_URL when those are set.
// Everything else defaults inside the schema (schema.ts).
import type { Env } from "./files.ts";
import type { ConfigLayer } from "./merge.ts";

const BUILTIN_PROVIDERS = {
  anthropic: {
    kind: "anthropic",
    api_key_env: "ANTHROPIC_API_KEY",
    base_url_env: "ANTHROPIC_BASE_URL",
  },
  openai: {
    kind: "openai-responses",
    api_key_env: "OPENAI_API_KEY",
    base_url_env: "OPENAI_BASE_URL",
  },
} as const;

/**
 * The variables the built-in providers take their base URLs from. A base URL may carry
 * credentials (`https://user:password@proxy/`), so codewhale treats these like the key
 * variables: read once, then kept from every child (cli/credential-scrub.ts).
 */
export const BUILTIN_BASE_URL_VARS: readonly string[] = Object.values(BUILTIN_PROVIDERS).map(
  (builtin) => builtin.base_url_env,
);

export function builtinLayers(env: Env): ConfigLayer[] {
  const providers: Record<string, unknown> = {};
  const layers: ConfigLayer[] = [{ source: "default", data: { providers } }];
  for (const [name, builtin] of Object.entries(BUILTIN_PROVIDERS)) {
    providers[name] = { kind: builtin.kind, api_key_env: builtin.api_key_env };
    const baseUrl = env[builtin.base_url_env];
    if (baseUrl) {
      const data = { providers: { [name]: { base_url: baseUrl } } };
      layers.push({ source: `env ${builtin.base_url_env}`, data });
    }
  }
  return layers;
}
