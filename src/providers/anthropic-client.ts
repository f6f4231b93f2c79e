// The Anthropic SDK client the Messages adapter and the token count use, loaded lazily (the
// SDKs are slow to import and each is a chunk of its own: scripts/build.mjs): Anthropic's API
// with the key, or Claude on Bedrock or Vertex through Anthropic's SDK for that platform, with
// the credentials provider-resolve.ts read (else the platform's own default chain). The SDKs'
// retries are off (the loop owns retries); requests go through http-client.ts.
import type { Anthropic } from "@anthropic-ai/sdk";
import { providerFetch } from "./http-client.ts";
import type { CloudPlatform, ProviderConfig } from "./types.ts";

const DEFAULT_ANTHROPIC_URL = "https://api.anthropic.com";

/** What the adapters call on a client: the Messages resource, the same on every platform. */
type AnthropicClient = Pick<Anthropic, "messages">;

export async function createAnthropicClient(
  config: ProviderConfig,
  timeoutMs?: number,
): Promise<AnthropicClient> {
  const fetch = await providerFetch();
  const common = {
    fetch,
    maxRetries: 0,
    ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
    ...(config.headers ? { defaultHeaders: config.headers } : {}),
  };
  if (config.cloud?.platform === "bedrock") return bedrockClient(config, config.cloud, common);
  if (config.cloud?.platform === "vertex") return vertexClient(config, config.cloud, common);
  // Named, not default: through a chunk, an ES `default` is the whole module.
  const { Anthropic } = await import("@anthropic-ai/sdk");
  return new Anthropic({
    ...common,
    apiKey: config.apiKey,
    baseURL: config.baseUrl ?? DEFAULT_ANTHROPIC_URL,
  });
}

type Common = { fetch: typeof fetch; maxRetries: number; timeout?: number };

async function bedrockClient(
  config: ProviderConfig,
  cloud: Extract<CloudPlatform, { platform: "bedrock" }>,
  common: Common,
): Promise<AnthropicClient> {
  const { AnthropicBedrock } = await import("@anthropic-ai/bedrock-sdk");
  const keys = cloud.credentials;
  const options = {
    ...common,
    awsRegion: cloud.region,
    // Given, the SDK reads no ANTHROPIC_BEDROCK_BASE_URL of its own.
    baseURL: config.baseUrl ?? `https://bedrock-runtime.${cloud.region}.amazonaws.com`,
  };
  const client = keys
    ? new AnthropicBedrock({
        ...options,
        awsAccessKey: keys.accessKeyId,
        awsSecretKey: keys.secretAccessKey,
        awsSessionToken: keys.sessionToken ?? null,
      })
    : new AnthropicBedrock(options);
  return client as unknown as AnthropicClient;
}

async function vertexClient(
  config: ProviderConfig,
  cloud: Extract<CloudPlatform, { platform: "vertex" }>,
  common: Common,
): Promise<AnthropicClient> {
  const { AnthropicVertex } = await import("@anthropic-ai/vertex-sdk");
  const token = cloud.accessToken;
  return new AnthropicVertex({
    ...common,
    region: cloud.region,
    projectId: cloud.projectId,
    ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
    // A token given: an auth client of its own, so google-auth looks for no credentials.
    ...(token ? { authClient: tokenAuthClient(token, cloud.projectId) } : {}),
  }) as unknown as AnthropicClient;
}

/** The part of google-auth's AuthClient the Vertex SDK calls, over a fixed access token. */
function tokenAuthClient(token: string, projectId: string) {
  const client = {
    projectId,
    getRequestHeaders: async () => new Headers({ authorization: `Bearer ${token}` }),
  };
  type AuthClient = NonNullable<
    ConstructorParameters<typeof import("@anthropic-ai/vertex-sdk").AnthropicVertex>[0]
  >["authClient"];
  return client as unknown as AuthClient;
}
