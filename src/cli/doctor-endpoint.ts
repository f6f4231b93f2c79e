// The doctor's two checks of the configured model: that it can run (its provider is configured
// and its key variable is set, never printing the key), and that the provider's endpoint
// answers: one GET of the model list at the configured base URL with the key, within a few
// seconds. A refused key or no answer fails; another HTTP status only warns (a proxy may
// serve requests but no list). Called by doctor-command.ts.
import { resolveModel } from "../agent/index.ts";
import type { Config } from "../config/index.ts";
import { ConfigError } from "../errors.ts";
import { providerFetch } from "../providers/http-client.ts";
import type { ProviderConfig } from "../providers/index.ts";
import type { DoctorCheck } from "./doctor-command.ts";

const TIMEOUT_MS = 5_000;
const DEFAULT_BASE: Record<ProviderConfig["kind"], string> = {
  anthropic: "https://api.anthropic.com",
  "openai-chat": "https://api.openai.com/v1",
  "openai-responses": "https://api.openai.com/v1",
};

/** The model check, and the endpoint check when the model can run. */
export async function modelChecks(config: Config, env: NodeJS.ProcessEnv): Promise<DoctorCheck[]> {
  let provider: ProviderConfig;
  try {
    provider = resolveModel(config, config.model, env).provider;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return [
      { name: "model", status: "fail", detail: `${config.model} cannot run: ${error.message}` },
    ];
  }
  const model = {
    name: "model",
    status: "ok" as const,
    detail: `${config.model} (provider ${provider.name}, ${provider.kind})`,
  };
  return [model, await endpointCheck(provider)];
}

async function endpointCheck(provider: ProviderConfig): Promise<DoctorCheck> {
  const url = modelListUrl(provider);
  const shown = withoutCredentials(url);
  const started = Date.now();
  let status: number;
  try {
    const fetch = await providerFetch();
    const response = await fetch(url, {
      headers: requestHeaders(provider),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: "manual",
    });
    status = response.status;
    await response.arrayBuffer().catch(() => undefined);
  } catch (error) {
    const reason =
      error instanceof Error && error.name === "AbortError"
        ? `no answer in ${TIMEOUT_MS / 1000} s`
        : causeOf(error).split(url).join(shown);
    return { name: "endpoint", status: "fail", detail: `${shown} did not answer: ${reason}` };
  }
  const took = `${Date.now() - started} ms`;
  if (status >= 200 && status < 300) {
    return {
      name: "endpoint",
      status: "ok",
      detail: `${shown} answered HTTP ${status} in ${took}`,
    };
  }
  if (status === 401 || status === 403) {
    const key = provider.name;
    return {
      name: "endpoint",
      status: "fail",
      detail: `${shown} refused the key of provider "${key}" (HTTP ${status})`,
    };
  }
  return {
    name: "endpoint",
    status: "warn",
    detail: `${shown} answered HTTP ${status} in ${took} (no model list there)`,
  };
}

/** `<base>/v1/models` for Anthropic, `<base>/models` for OpenAI's (whose base ends in /v1). */
function modelListUrl(provider: ProviderConfig): string {
  const base = (provider.baseUrl ?? DEFAULT_BASE[provider.kind]).replace(/\/+$/, "");
  return provider.kind === "anthropic" ? `${base}/v1/models` : `${base}/models`;
}

function requestHeaders(provider: ProviderConfig): Record<string, string> {
  const auth: Record<string, string> =
    provider.kind === "anthropic"
      ? { "x-api-key": provider.apiKey, "anthropic-version": "2023-06-01" }
      : { authorization: `Bearer ${provider.apiKey}` };
  return { ...provider.headers, ...auth };
}

/** The URL without any user or password it carries (a proxy's credentials). */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.toString();
  } catch {
    return "the configured base URL";
  }
}

/** The system error code (ECONNREFUSED, ENOTFOUND) or message, without a stack. */
function causeOf(error: unknown): string {
  const code =
    (error as { code?: unknown; cause?: { code?: unknown } }).code ??
    (error as { cause?: { code?: unknown } }).cause?.code;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.message.split("\n", 1)[0]! : String(error);
}
