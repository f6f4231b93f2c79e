// The built-in config layers under the user's files: the `anthropic` and `openai` providers and
// the presets of OpenAI-compatible services (DeepSeek, OpenRouter, Groq, …, Azure OpenAI, local
// servers), each with its key variable and its base URL, which `<NAME>_BASE_URL` overrides when
// set. Everything else defaults inside the schema (schema.ts).
import type { Env } from "./files.ts";
import type { ConfigLayer } from "./merge.ts";

interface Builtin {
  kind: "anthropic" | "openai-responses" | "openai-chat";
  /** Absent for a local server that takes no key. */
  api_key_env?: string;
  base_url_env: string;
  /** Absent where the provider's SDK has its own default (or, Azure, there is none). */
  base_url?: string;
  /** A second variable the base URL is read from when the first is unset (Azure's endpoint). */
  endpoint_env?: string;
  /** Azure OpenAI's default `api-version`, which `api_version_env` overrides. */
  api_version?: string;
  api_version_env?: string;
  /** Claude through Anthropic's Bedrock or Vertex SDK. */
  platform?: "bedrock" | "vertex";
  /** The variables `region` and `project_id` are read from, the first one set. */
  region_envs?: readonly string[];
  project_id_env?: string;
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
  // The model is the deployment's name; the endpoint is the resource's own (no default).
  azure: {
    kind: "openai-chat",
    api_key_env: "AZURE_OPENAI_API_KEY",
    base_url_env: "AZURE_OPENAI_BASE_URL",
    endpoint_env: "AZURE_OPENAI_ENDPOINT",
    api_version: "2024-10-21",
    api_version_env: "AZURE_OPENAI_API_VERSION",
  },
  // Claude on AWS and Google Cloud: credentials are the platform's (provider-resolve.ts).
  bedrock: {
    kind: "anthropic",
    platform: "bedrock",
    base_url_env: "BEDROCK_BASE_URL",
    region_envs: ["AWS_REGION", "AWS_DEFAULT_REGION"],
  },
  vertex: {
    kind: "anthropic",
    platform: "vertex",
    base_url_env: "VERTEX_BASE_URL",
    region_envs: ["CLOUD_ML_REGION"],
    project_id_env: "ANTHROPIC_VERTEX_PROJECT_ID",
  },
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
export const BUILTIN_BASE_URL_VARS: readonly string[] = Object.values(BUILTIN_PROVIDERS).flatMap(
  (builtin) => [builtin.base_url_env, ...(builtin.endpoint_env ? [builtin.endpoint_env] : [])],
);

/**
 * The cloud credentials the `bedrock` and `vertex` presets read from the environment: kept from
 * every child like the key variables (a command inherits none of them).
 */
export const BUILTIN_CREDENTIAL_VARS: readonly string[] = [
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "GOOGLE_OAUTH_ACCESS_TOKEN",
];

export function builtinLayers(env: Env): ConfigLayer[] {
  const providers: Record<string, unknown> = {};
  const layers: ConfigLayer[] = [{ source: "default", data: { providers } }];
  for (const [name, builtin] of Object.entries(BUILTIN_PROVIDERS)) {
    const { kind, api_key_env, base_url, api_version, platform } = builtin;
    providers[name] = {
      kind,
      ...(api_key_env ? { api_key_env } : {}),
      ...(base_url ? { base_url } : {}),
      ...(api_version ? { api_version } : {}),
      ...(platform ? { platform } : {}),
    };
    const fromEnv = (key: string, names: readonly (string | undefined)[]) => {
      const found = names.find((variable) => variable && env[variable]);
      if (!found) return;
      const data = { providers: { [name]: { [key]: env[found] } } };
      layers.push({ source: `env ${found}`, data });
    };
    fromEnv("base_url", [builtin.base_url_env, builtin.endpoint_env]);
    fromEnv("api_version", [builtin.api_version_env]);
    fromEnv("region", builtin.region_envs ?? []);
    fromEnv("project_id", [builtin.project_id_env]);
  }
  return layers;
}
