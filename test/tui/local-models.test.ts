// The interactive start with no key and a local server, as exec does it: no `--model`, no key
// for the default model's provider, and an Ollama server answering at its preset's base URL
// (the loopback mock in place of the default port) gives the session that server's first model,
// which the transcript names with the others (with none answering, the missing key is the
// error, as before: exec-local-models.test.ts checks the shared code's fallback).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startMockProvider } from "../support/mock-provider/index.ts";
import { closedPort } from "../support/ports.ts";
import { type ExecEnv, execEnv } from "../support/provider-env.ts";
import { startVirtual } from "../support/virtual-chat.ts";

/** The home without the Anthropic key, Ollama at `ollama`, LM Studio at a closed port. */
async function keyless(setup: ExecEnv, ollama: string): Promise<ExecEnv> {
  const { ANTHROPIC_API_KEY: _key, ...env } = setup.env;
  const closed = await closedPort();
  const lmstudio = `http://127.0.0.1:${closed}/v1`;
  return { ...setup, env: { ...env, OLLAMA_BASE_URL: ollama, LMSTUDIO_BASE_URL: lmstudio } };
}

describe("the interactive start with no key and a local server", () => {
  it("opens on the Ollama server's first model and names the others", async (t) => {
    const mock = await startMockProvider();
    t.after(() => mock.close());
    const setup = await keyless(execEnv(mock), `${mock.url}/v1`);
    const { screen } = await startVirtual(t, [], { mock, setup, noModel: true });
    await screen.waitFor(/using ollama\/qwen-mock:7b from the\s+Ollama server/);
    await screen.waitFor("llama-mock:8b");
    mock.enqueue({ blocks: [{ kind: "text", text: "hello from ollama" }] });
    screen.type("hi");
    screen.keys("Enter");
    await screen.waitFor("hello from ollama");
    const chat = mock.requests.find((request) => request.path === "/v1/chat/completions");
    assert.equal((chat?.body as { model?: string } | undefined)?.model, "qwen-mock:7b");
  });
});
