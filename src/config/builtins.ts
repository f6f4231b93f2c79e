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
