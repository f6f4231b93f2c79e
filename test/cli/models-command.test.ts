// `codewhale models`: each provider's model list from its endpoint (here the loopback mock),
// with the context window and price codewhale knows, a keyed provider without its key named
// instead of asked, a server that does not answer on one line, and hostile ids escaped.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, it } from "node:test";
import { execEnv, spawnCli } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

// An OpenAI-compatible server whose list holds a hostile id.
const hostile = createServer((_req, res) => {
  res.setHeader("content-type", "application/json");
  res.end(
    JSON.stringify({ data: [{ id: "evil\u001b]0;pwned\u0007model" }, { id: "" }, { nope: 1 }] }),
  );
});
await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
after(() => hostile.close());
const hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/v1`;

describe("codewhale models", () => {
  it("lists each provider's models with what codewhale knows of them", async () => {
    const base = execEnv(mock);
    const setup = { ...base, env: { ...base.env, OLLAMA_BASE_URL: "http://127.0.0.1:9/v1" } };
    const json = await spawnCli(["models", "--json"], setup, "").done;
    assert.equal(json.status, 0, json.stderr);
    const lists = JSON.parse(json.stdout) as {
      provider: string;
      problem?: string;
      models: { id: string; context_window: number | null; input_price: number | null }[];
    }[];
    const openai = lists.find((list) => list.provider === "openai");
    assert.deepEqual(
      openai?.models.map((m) => m.id),
      ["claude-mock-1", "gpt-5"],
    );
    const gpt5 = openai?.models.find((m) => m.id === "gpt-5");
    assert.ok(gpt5?.context_window && gpt5.input_price !== null, "gpt-5 has a window and a price");
    assert.deepEqual(
      lists.find((l) => l.provider === "groq")?.problem,
      "not asked: GROQ_API_KEY is not set",
    );
    assert.match(
      lists.find((l) => l.provider === "ollama")?.problem ?? "",
      /did not answer: ECONNREFUSED/,
    );
    const text = (await spawnCli(["models"], setup, "").done).stdout;
    assert.match(text, /^openai\/gpt-5 +\d+k context {2}\$[\d.]+\/\$[\d.]+ per Mtok in\/out$/m);
  });

  it("prints a hostile model id escaped, and only valid ids, through the CLI", async () => {
    const setup = execEnv(
      mock,
      `[providers.odd]\nkind = "openai-chat"\nbase_url = "${hostileUrl}"\n`,
    );
    const run = await spawnCli(["models", "--provider", "odd"], setup, "").done;
    assert.equal(run.status, 0, run.stderr);
    assert.ok(!run.stdout.includes("\u001b") && !run.stdout.includes("\u0007"), run.stdout);
    assert.equal(run.stdout.trim().split("\n").length, 1, run.stdout);
    assert.match(run.stdout, /^odd\/evil.*model$/m);
    const unknown = await spawnCli(["models", "--provider", "nope"], setup, "").done;
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /--provider nope: no such provider \(configured: /);
  });
});
