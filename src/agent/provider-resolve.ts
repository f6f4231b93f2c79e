// Resolves `provider/model` into the adapter's ProviderConfig: the provider's config entry
// plus its API key from the environment (surrounding whitespace trimmed). A missing key, or one
// a header cannot carry, is a one-line ConfigError (exit 2) naming the variable; the key itself
// is never printed, logged or persisted.
import type { Config, Env } from "../config/index.ts";
import { ConfigError } from "../errors.ts";
import type { CloudPlatform, ProviderConfig } from "../providers/index.ts";

interface ResolvedModel {
  provider: ProviderConfig;
  /** The model id without the provider prefix. */
  model: string;
}

/** Visible ASCII only: what a key must be to travel in an HTTP header unchanged. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** A key for providers that need none (a local server): the SDKs insist on some value. */
const NO_KEY = "no-key";

/** Splits `provider/model` at the first slash; the model part may contain slashes. */
export function splitModelId(id: string): { provider: string; model: string } {
  const at = id.indexOf("/");
  if (at <= 0 || at === id.length - 1) {
    throw new ConfigError(
      `invalid model "${id}": expected "provider/model"`,
      undefined,
      undefined,
      "model",
    );
  }
  return { provider: id.slice(0, at), model: id.slice(at + 1) };
}

export function resolveModel(config: Config, modelId: string, env: Env): ResolvedModel {
  const { provider: name, model } = splitModelId(modelId);
  const entry = config.providers[name];
  if (!entry) {
    const known = Object.keys(config.providers).join(", ");
    throw new ConfigError(`unknown provider "${name}" (configured: ${known})`);
  }
  const apiKey = entry.api_key_env === undefined ? NO_KEY : env[entry.api_key_env]?.trim();
  if (!apiKey) {
    throw new ConfigError(`no API key for provider "${name}": set ${entry.api_key_env}`);
  }
  if (!HEADER_SAFE.test(apiKey)) {
    throw new ConfigError(
      `the API key in ${entry.api_key_env} for provider "${name}" holds a space, line break or other character an HTTP header cannot carry; set it again`,
    );
  }
  const provider: ProviderConfig = { name, kind: entry.kind, apiKey };
  if (entry.base_url !== undefined) provider.baseUrl = entry.base_url;
  if (entry.headers !== undefined) provider.headers = entry.headers;
  if (entry.api_version !== undefined) {
    // Azure's endpoint is the user's own resource: there is no default to fall back on.
    if (entry.base_url === undefined) {
      const preset = name === "azure" ? "AZURE_OPENAI_ENDPOINT or " : "";
      throw new ConfigError(
        `no endpoint for provider "${name}": set ${preset}providers.${name}.base_url`,
      );
    }
    provider.apiVersion = entry.api_version;
  }
  if (entry.platform !== undefined) provider.cloud = cloudOf(name, entry, env);
  return { provider, model };
}

type ProviderEntry = Config["providers"][string];

/** Bedrock's or Vertex's settings, each missing one a one-line ConfigError naming its variable. */
function cloudOf(name: string, entry: ProviderEntry, env: Env): CloudPlatform {
  const need = (value: string | undefined, what: string, variable: string): string => {
    if (value) return value;
    throw new ConfigError(
      `no ${what} for provider "${name}": set ${variable} or providers.${name}.${what}`,
    );
  };
  if (entry.platform === "bedrock") {
    const region = need(entry.region, "region", "AWS_REGION");
    const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim();
    const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim();
    const sessionToken = env.AWS_SESSION_TOKEN?.trim();
    if (!accessKeyId || !secretAccessKey) return { platform: "bedrock", region };
    const credentials = { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
    return { platform: "bedrock", region, credentials };
  }
  const region = need(entry.region, "region", "CLOUD_ML_REGION");
  const projectId = need(entry.project_id, "project_id", "ANTHROPIC_VERTEX_PROJECT_ID");
  const accessToken = env.GOOGLE_OAUTH_ACCESS_TOKEN?.trim();
  return { platform: "vertex", region, projectId, ...(accessToken ? { accessToken } : {}) };
}
