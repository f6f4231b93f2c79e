// One GET of a provider's model list (`<base>/v1/models` for Anthropic, `<base>/models` for the
// OpenAI wire formats, whose base ends in /v1, `<endpoint>/openai/models?api-version=…` for Azure) with its key, within a timeout: the HTTP status
// and the model ids it lists, or why it did not answer. The URL shown never carries the
// credentials a proxy URL may hold. Used by doctor's endpoint check and `codewhale models`.
import { providerFetch } from "./http-client.ts";
import { azureBaseUrl } from "./openai-client.ts";
import type { ProviderConfig } from "./types.ts";

const DEFAULT_BASE: Record<ProviderConfig["kind"], string> = {
  anthropic: "https://api.anthropic.com",
  "openai-chat": "https://api.openai.com/v1",
  "openai-responses": "https://api.openai.com/v1",
};

/** The most bytes of a list read: a list of thousands of models is well under it. */
const MAX_LIST_BYTES = 8 * 1024 * 1024;

type ModelListAnswer =
  | { answered: true; url: string; status: number; ms: number; ids: string[] }
  | { answered: false; url: string; reason: string };

export async function fetchModelList(
  provider: ProviderConfig,
  timeoutMs: number,
): Promise<ModelListAnswer> {
  const full = modelListUrl(provider);
  const url = withoutCredentials(full);
  const started = Date.now();
  try {
    const fetch = await providerFetch();
    const response = await fetch(full, {
      headers: requestHeaders(provider),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual",
    });
    const body = await response.arrayBuffer().catch(() => new ArrayBuffer(0));
    const ids = response.ok && body.byteLength <= MAX_LIST_BYTES ? idsOf(body) : [];
    return { answered: true, url, status: response.status, ms: Date.now() - started, ids };
  } catch (error) {
    const reason =
      error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")
        ? `no answer in ${timeoutMs / 1000} s`
        : causeOf(error).split(full).join(url);
    return { answered: false, url, reason };
  }
}

/** The `id` of each entry of `data` (both wire formats list models so), in order. */
function idsOf(body: ArrayBuffer): string[] {
  try {
    const parsed = JSON.parse(Buffer.from(body).toString("utf8")) as { data?: unknown };
    if (!Array.isArray(parsed.data)) return [];
    return parsed.data.flatMap((entry) =>
      typeof entry?.id === "string" && entry.id !== "" ? [entry.id as string] : [],
    );
  } catch {
    return [];
  }
}

function modelListUrl(provider: ProviderConfig): string {
  if (provider.apiVersion !== undefined) {
    const version = encodeURIComponent(provider.apiVersion);
    return `${azureBaseUrl(provider.baseUrl ?? "")}/models?api-version=${version}`;
  }
  const base = (provider.baseUrl ?? DEFAULT_BASE[provider.kind]).replace(/\/+$/, "");
  return provider.kind === "anthropic" ? `${base}/v1/models` : `${base}/models`;
}

function requestHeaders(provider: ProviderConfig): Record<string, string> {
  const auth: Record<string, string> =
    provider.kind === "anthropic"
      ? { "x-api-key": provider.apiKey, "anthropic-version": "2023-06-01" }
      : provider.apiVersion !== undefined
        ? { "api-key": provider.apiKey }
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
  return error instanceof Error ? (error.message.split("\n", 1)[0] ?? "") : String(error);
}
