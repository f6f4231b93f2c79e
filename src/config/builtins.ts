// The built-in config layers under the user's files: the `anthropic` and `openai` providers and
// the presets of OpenAI-compatible services (DeepSeek, OpenRouter, Groq, …, local servers), each
// with its key variable and its base URL, which `<NAME>_BASE_URL` overrides when set.
// Everything else defaults inside the schema (schema.ts).
import type { Env } from "./files.ts";
import type { ConfigLayer } from "./merge.ts";

interface Builtin {
  kind: "anthropic" | "openai-responses" | "openai-chat";
  /** Absent for a local server that takes no key. */
  api_key_env?: string;
  base_url_env: string;
  /** Absent where the provider's SDK has its own default. */
  base_url?: string;
}

/** A Chat Completions service: its key variable (none for a local server) and base URL. */
function chat(prefix: string, base_url: string, keyed = true): Builtin {
  const key = keyed ? { api_key_env: `${prefix}_API_KEY` } : {};
  return { kind: "openai-chat", ...key, base_url_env: `${prefix}_BASE_URL`, base_url };
}

const BUILTIN_PROVIDERS: Readonly<Record<string, Builtin>> = {
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
  deepseek: chat("DEEPSEEK", "https://api.deepseek.com"),
  openrouter: chat("OPENROUTER", "https://openrouter.ai/api/v1"),
  groq: chat("GROQ", "https://api.groq.com/openai/v1"),
  mistral: chat("MISTRAL", "https://api.mistral.ai/v1"),
  xai: chat("XAI", "https://api.x.ai/v1"),
  together: chat("TOGETHER", "https://api.together.xyz/v1"),
  fireworks: chat("FIREWORKS", "https://api.fireworks.ai/inference/v1"),
  gemini: chat("GEMINI", "https://generativelanguage.googleapis.com/v1beta/openai"),
  ollama: chat("OLLAMA", "http://127.0.0.1:11434/v1", false),
  lmstudio: chat("LMSTUDIO", "http://127.0.0.1:1234/v1", false),
  llamacpp: chat("LLAMACPP", "http://127.0.0.1:8080/v1", false),
  vllm: chat("VLLM", "http://127.0.0.1:8000/v1", false),
};

/** The providers every config has without an entry of its own. */
export const BUILTIN_PROVIDER_NAMES: ReadonlySet<string> = new Set(Object.keys(BUILTIN_PROVIDERS));

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
    const { kind, api_key_env, base_url } = builtin;
    providers[name] = {
      kind,
      ...(api_key_env ? { api_key_env } : {}),
      ...(base_url ? { base_url } : {}),
    };
    const baseUrl = env[builtin.base_url_env];
    if (baseUrl) {
      const data = { providers: { [name]: { base_url: baseUrl } } };
      layers.push({ source: `env ${builtin.base_url_env}`, data });
    }
  }
  return layers;
}
