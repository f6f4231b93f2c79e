// Every built-in preset of an OpenAI-compatible service works with no config: `--model
// <preset>/<model>` resolves to Chat Completions at the preset's base URL (here moved to the
// loopback mock by `<NAME>_BASE_URL`, as a user would for a proxy) with the key from its own
// variable, and the request the real SDK sends has the model and the bearer key. Azure OpenAI's
// preset speaks the SDK's Azure client: the deployment in the path, `api-version` in the query,
// the key in an `api-key` header.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveModel } from "../../src/agent/provider-resolve.ts";
import { BUILTIN_PROVIDER_NAMES, loadConfig } from "../../src/config/index.ts";
import { fetchModelList, stream } from "../../src/providers/index.ts";
import { createLayout } from "../config/support/temp-config.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { collect, makeRequest, messageOf } from "./helpers.ts";

const PRESETS: Record<string, { prefix: string; keyed: boolean }> = {
  deepseek: { prefix: "DEEPSEEK", keyed: true },
  openrouter: { prefix: "OPENROUTER", keyed: true },
  groq: { prefix: "GROQ", keyed: true },
  mistral: { prefix: "MISTRAL", keyed: true },
  xai: { prefix: "XAI", keyed: true },
  together: { prefix: "TOGETHER", keyed: true },
  fireworks: { prefix: "FIREWORKS", keyed: true },
  gemini: { prefix: "GEMINI", keyed: true },
  ollama: { prefix: "OLLAMA", keyed: false },
  lmstudio: { prefix: "LMSTUDIO", keyed: false },
  llamacpp: { prefix: "LLAMACPP", keyed: false },
  vllm: { prefix: "VLLM", keyed: false },
};

describe("built-in provider presets", () => {
  const mock = useMockProvider();

  it("are exactly the documented ones, beside anthropic and openai", () => {
    const names = Object.keys(PRESETS);
    names.splice(names.indexOf("gemini") + 1, 0, "azure", "bedrock", "vertex");
    assert.deepEqual([...BUILTIN_PROVIDER_NAMES], ["anthropic", "openai", ...names]);
  });

  for (const [name, { prefix, keyed }] of Object.entries(PRESETS)) {
    it(`${name}: ${name}/<model> talks Chat Completions at ${prefix}_BASE_URL with ${keyed ? `${prefix}_API_KEY` : "no key"}`, async () => {
      const layout = createLayout();
      try {
        const env = {
          ...layout.env(),
          [`${prefix}_BASE_URL`]: `${mock.url}/v1`,
          ...(keyed ? { [`${prefix}_API_KEY`]: `fake-${name}-key-0123456789` } : {}),
        };
        const { config } = loadConfig({ cwd: layout.project, env });
        const { provider, model } = resolveModel(config, `${name}/some-model-1`, env);
        assert.equal(provider.kind, "openai-chat");
        mock.enqueue({ blocks: [{ kind: "text", text: `hi from ${name}` }] });
        const before = mock.requests.length;
        const request = makeRequest({ model, messages: [{ role: "user", text: "hi", seq: 1 }] });
        const reply = messageOf(await collect(stream(provider, request)));
        assert.match(JSON.stringify(reply.content), new RegExp(`hi from ${name}`));
        const sent = mock.requests[before];
        assert.equal(sent?.path, "/v1/chat/completions");
        assert.equal((sent?.body as { model?: string } | undefined)?.model, "some-model-1");
        assert.equal(
          sent?.auth,
          "bearer",
          "the SDK always sends a bearer key (a placeholder for a local server)",
        );
        if (keyed) assert.ok(!sent?.raw.includes("fake-"), "the key is not in the body");
      } finally {
        layout.cleanup();
      }
    });
  }

  it("azure: azure/<deployment> talks Chat Completions on the deployment's route with an api-key header", async () => {
    const layout = createLayout();
    try {
      for (const [variable, version] of [
        ["AZURE_OPENAI_ENDPOINT", undefined],
        ["AZURE_OPENAI_BASE_URL", "2025-04-01-preview"],
      ] as const) {
        const env = {
          ...layout.env(),
          [variable]: `${mock.url}/`,
          AZURE_OPENAI_API_KEY: "fake-azure-key-0123456789",
          ...(version ? { AZURE_OPENAI_API_VERSION: version } : {}),
        };
        const { config } = loadConfig({ cwd: layout.project, env });
        const { provider, model } = resolveModel(config, "azure/my-gpt-deployment", env);
        mock.enqueue({ blocks: [{ kind: "text", text: "hi from azure" }] });
        const before = mock.requests.length;
        const request = makeRequest({ model, messages: [{ role: "user", text: "hi", seq: 1 }] });
        const reply = messageOf(await collect(stream(provider, request)));
        assert.match(JSON.stringify(reply.content), /hi from azure/);
        const sent = mock.requests[before];
        assert.equal(sent?.path, "/openai/deployments/my-gpt-deployment/chat/completions");
        assert.equal(sent?.query, `api-version=${version ?? "2024-10-21"}`);
        assert.equal(sent?.auth, "api-key");
        assert.ok(!sent?.raw.includes("fake-"), "the key is not in the body");
        const list = await fetchModelList(provider, 5000);
        assert.ok(list.answered && list.status === 200, JSON.stringify(list));
        const asked = mock.requests.at(-1);
        assert.equal(asked?.path, "/openai/models");
        assert.equal(asked?.auth, "api-key");
      }
    } finally {
      layout.cleanup();
    }
  });

  it("azure without an endpoint fails with one line naming the variable", () => {
    const layout = createLayout();
    try {
      const env = { ...layout.env(), AZURE_OPENAI_API_KEY: "fake-azure-key-0123456789" };
      const { config } = loadConfig({ cwd: layout.project, env });
      assert.throws(() => resolveModel(config, "azure/gpt-4o", env), {
        message:
          'no endpoint for provider "azure": set AZURE_OPENAI_ENDPOINT or providers.azure.base_url',
      });
    } finally {
      layout.cleanup();
    }
  });

  it("fails with one line naming the variable when a keyed preset has no key", () => {
    const layout = createLayout();
    try {
      const { config } = loadConfig({ cwd: layout.project, env: layout.env() });
      assert.throws(() => resolveModel(config, "groq/llama-3.3-70b", layout.env()), {
        message: 'no API key for provider "groq": set GROQ_API_KEY',
      });
    } finally {
      layout.cleanup();
    }
  });
});
