// Every built-in preset of an OpenAI-compatible service works with no config: `--model
// <preset>/<model>` resolves to Chat Completions at the preset's base URL (here moved to the
// loopback mock by `<NAME>_BASE_URL`, as a user would for a proxy) with the key from its own
// variable, and the request the real SDK sends has the model and the bearer key.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveModel } from "../../src/agent/provider-resolve.ts";
import { BUILTIN_PROVIDER_NAMES, loadConfig } from "../../src/config/index.ts";
import { stream } from "../../src/providers/index.ts";
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
    assert.deepEqual([...BUILTIN_PROVIDER_NAMES], ["anthropic", "openai", ...Object.keys(PRESETS)]);
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
