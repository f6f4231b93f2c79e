// With no model named and no key for the default one, exec runs the first model of a local
// Ollama server answering at its preset's base URL (the loopback mock, via OLLAMA_BASE_URL in
// place of the default port) and says so on stderr, naming the others; with no local server
// answering it fails as before, naming the missing key.
import assert from "node:assert/strict";
import { createServer as createHttpServer } from "node:http";
import { describe, it } from "node:test";
import { execEnv, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { closedPort } from "../support/ports.ts";

describe("exec with no key and a local server", () => {
  const mock = useMockProvider();

  it("runs the Ollama server's first model and names the others", async () => {
    const setup = execEnv(mock);
    const { ANTHROPIC_API_KEY: _key, ...env } = setup.env;
    const closed = await closedPort();
    mock.enqueue({ blocks: [{ kind: "text", text: "hello from ollama" }] });
    const run = await runExec(["hi"], {
      ...setup,
      env: {
        ...env,
        OLLAMA_BASE_URL: `${mock.url}/v1`,
        LMSTUDIO_BASE_URL: `http://127.0.0.1:${closed}/v1`,
      },
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /hello from ollama/);
    assert.match(
      run.stderr,
      /no API key for provider "anthropic".*using ollama\/qwen-mock:7b from the Ollama server.*llama-mock:8b/,
    );
    const chat = mock.requests.find((request) => request.path === "/v1/chat/completions");
    assert.equal((chat?.body as { model?: string } | undefined)?.model, "qwen-mock:7b");
  });

  it("a listed name with a terminal sequence or a blank is passed over, never printed", async (t) => {
    const setup = execEnv(mock);
    const { ANTHROPIC_API_KEY: _key, ...env } = setup.env;
    const closed = await closedPort();
    // Any local process may listen on Ollama's port: its list is not codewhale's to trust.
    const names = ["evil\x1b]0;owned\x07", "two words", "qwen-ok:1b", "more\x1b[2J"];
    const server = createHttpServer((_request, response) => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ models: names.map((name) => ({ name })) }));
    }).listen(0, "127.0.0.1");
    t.after(() => server.close());
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as { port: number };
    const run = await runExec(["hi"], {
      ...setup,
      env: {
        ...env,
        OLLAMA_BASE_URL: `http://127.0.0.1:${port}/v1`,
        LMSTUDIO_BASE_URL: `http://127.0.0.1:${closed}/v1`,
      },
    });
    assert.match(run.stderr, /using ollama\/qwen-ok:1b from the Ollama server/);
    assert.ok(!run.stderr.includes("\x1b"), run.stderr);
    assert.ok(!run.stderr.includes("two words"), run.stderr);
  });

  it("without a local server answering, fails naming the key", async () => {
    const setup = execEnv(mock);
    const { ANTHROPIC_API_KEY: _key, ...env } = setup.env;
    const closed = await closedPort();
    const run = await runExec(["hi"], {
      ...setup,
      env: {
        ...env,
        OLLAMA_BASE_URL: `http://127.0.0.1:${closed}/v1`,
        LMSTUDIO_BASE_URL: `http://127.0.0.1:${closed}/v1`,
      },
    });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /no API key for provider "anthropic": set ANTHROPIC_API_KEY/);
  });
});
