// Claude on Amazon Bedrock and Google Vertex AI through Anthropic's own SDKs for them, with no
// config: `--model bedrock/<id>` and `--model vertex/<id>` at the loopback mock (moved there by
// BEDROCK_BASE_URL and VERTEX_BASE_URL), fake credentials from the environment. Bedrock's
// request is SigV4-signed on the model's invoke-with-response-stream route and its answer comes
// in AWS event-stream framing; Vertex's goes to the model's streamRawPredict route with the
// access token as a bearer and no google-auth lookup. A missing region or project is one line.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveModel } from "../../src/agent/provider-resolve.ts";
import { loadConfig } from "../../src/config/index.ts";
import { providerKeyVars } from "../../src/hooks/env.ts";
import { stream } from "../../src/providers/index.ts";
import { createLayout } from "../config/support/temp-config.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { collect, makeRequest, messageOf } from "./helpers.ts";

const MODEL = "anthropic.claude-sonnet-4-5-v1:0";

describe("Claude on Bedrock and Vertex", () => {
  const mock = useMockProvider();

  async function ask(name: string, model: string, env: Record<string, string>) {
    const layout = createLayout();
    try {
      const full = { ...layout.env(), ...env };
      const { config } = loadConfig({ cwd: layout.project, env: full });
      const { provider, model: id } = resolveModel(config, `${name}/${model}`, full);
      assert.equal(provider.kind, "anthropic");
      mock.enqueue({ blocks: [{ kind: "text", text: `hi from ${name}` }] });
      const before = mock.requests.length;
      const request = makeRequest({ model: id, messages: [{ role: "user", text: "hi", seq: 1 }] });
      const reply = messageOf(await collect(stream(provider, request)));
      assert.match(JSON.stringify(reply.content), new RegExp(`hi from ${name}`));
      return mock.requests[before];
    } finally {
      layout.cleanup();
    }
  }

  it("bedrock/<model>: a SigV4-signed request on the model's stream route, answered in event-stream frames", async () => {
    const sent = await ask("bedrock", MODEL, {
      BEDROCK_BASE_URL: mock.url,
      AWS_REGION: "eu-west-3",
      AWS_ACCESS_KEY_ID: "AKIAFAKEFAKEFAKEFAKE",
      AWS_SECRET_ACCESS_KEY: "fake-secret-0123456789",
    });
    assert.equal(sent?.path, `/model/${MODEL}/invoke-with-response-stream`);
    assert.equal(sent?.auth, "sigv4");
    assert.ok(sent?.headers["x-amz-date"], "signed with a date");
    const body = sent?.body as { anthropic_version?: string; model?: string } | undefined;
    assert.equal(typeof body?.anthropic_version, "string", "the API version is in the body");
    assert.equal(body?.model, undefined, "the model is in the path");
  });

  it("vertex/<model>: the model's streamRawPredict route with the access token, no google-auth lookup", async () => {
    const sent = await ask("vertex", "claude-sonnet-4-5@20250929", {
      VERTEX_BASE_URL: `${mock.url}/v1`,
      CLOUD_ML_REGION: "europe-west1",
      ANTHROPIC_VERTEX_PROJECT_ID: "fake-project",
      GOOGLE_OAUTH_ACCESS_TOKEN: "ya29.fake-token-0123456789",
    });
    assert.equal(
      sent?.path,
      "/v1/projects/fake-project/locations/europe-west1/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict",
    );
    assert.equal(sent?.auth, "bearer");
    const body = sent?.body as { anthropic_version?: string; model?: string } | undefined;
    assert.equal(typeof body?.anthropic_version, "string", "the API version is in the body");
    assert.equal(body?.model, undefined, "the model is in the path");
  });

  it("a missing region or project is one line naming its variable", () => {
    const layout = createLayout();
    try {
      const { config } = loadConfig({ cwd: layout.project, env: layout.env() });
      assert.throws(() => resolveModel(config, `bedrock/${MODEL}`, layout.env()), {
        message: 'no region for provider "bedrock": set AWS_REGION or providers.bedrock.region',
      });
      const env = { ...layout.env(), CLOUD_ML_REGION: "us-east5" };
      const loaded = loadConfig({ cwd: layout.project, env });
      assert.throws(() => resolveModel(loaded.config, "vertex/claude", env), {
        message:
          'no project_id for provider "vertex": set ANTHROPIC_VERTEX_PROJECT_ID or providers.vertex.project_id',
      });
    } finally {
      layout.cleanup();
    }
  });

  it("the cloud credentials are among the variables kept from every child", () => {
    const names = providerKeyVars({});
    for (const name of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"]) {
      assert.ok(names.includes(name), name);
    }
    assert.ok(names.includes("GOOGLE_OAUTH_ACCESS_TOKEN"));
    assert.ok(names.includes("AZURE_OPENAI_ENDPOINT"));
  });
});
