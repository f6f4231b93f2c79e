// Failures through the real SDKs against the loopback mock, for every provider kind: each
// fault becomes one final `error` part with the right status, retryability, retry delay,
// request id and partial flag; aborts end quickly; a stream function never throws.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CANCELLED_MESSAGE } from "../../src/providers/failure.ts";
import { streamFor } from "../../src/providers/index.ts";
import {
  badRequest,
  flood,
  inStreamError,
  overloaded,
  rateLimited,
  type Script,
  serverError,
  slow,
  streamCut,
  useMockProvider,
} from "../support/mock-provider/index.ts";
import { collect, configFor, errorOf, KINDS, makeRequest, messageOf } from "./helpers.ts";

const LONG_TEXT: Script = {
  blocks: [{ kind: "text", text: "abcdefghij".repeat(10) }],
  chunkSize: 10,
};

describe("provider failures", () => {
  const mock = useMockProvider();

  for (const kind of KINDS) {
    const run = (request = makeRequest()) =>
      collect(streamFor(kind)(configFor(kind, mock), request));
    const lastRequestId = () => `req_mock_${mock.requests.length}`;

    it(`${kind}: 429 with retry-after seconds is retryable after that delay, not retried by the SDK`, async () => {
      const before = mock.requests.length;
      mock.enqueue(rateLimited("7"));
      const { error } = errorOf(await run());
      assert.equal(mock.requests.length, before + 1);
      assert.deepEqual(
        {
          status: error.status,
          retryable: error.retryable,
          retryAfterMs: error.retryAfterMs,
          partial: error.partial,
        },
        { status: 429, retryable: true, retryAfterMs: 7000, partial: false },
      );
      assert.equal(error.requestId, lastRequestId());
      assert.match(error.message, /429/);
    });

    it(`${kind}: retry-after as an HTTP date and retry-after-ms are honoured`, async () => {
      mock.enqueue(rateLimited(new Date(Date.now() + 30_000).toUTCString()));
      const byDate = errorOf(await run()).error.retryAfterMs ?? 0;
      assert.ok(byDate > 25_000 && byDate <= 30_000, `got ${byDate}`);
      mock.enqueue(rateLimited("7", { "retry-after-ms": "1500" }));
      assert.equal(errorOf(await run()).error.retryAfterMs, 1500);
    });

    it(`${kind}: 500 is retryable; 400 is not`, async () => {
      mock.enqueue(serverError());
      const server = errorOf(await run()).error;
      assert.equal(server.status, 500);
      assert.equal(server.retryable, true);
      mock.enqueue(badRequest());
      const bad = errorOf(await run()).error;
      assert.equal(bad.status, 400);
      assert.equal(bad.retryable, false);
      assert.equal(bad.retryAfterMs, undefined);
    });

    it(`${kind}: an in-stream error after some deltas is partial and classified by its type`, async () => {
      const type = kind === "anthropic" ? "overloaded_error" : "server_error";
      mock.enqueue(inStreamError(LONG_TEXT, 6, type));
      const parts = await run();
      const { error } = errorOf(parts);
      assert.ok(parts.some((p) => p.type === "delta"));
      assert.equal(parts.filter((p) => p.type === "error").length, 1);
      assert.equal(
        parts.some((p) => p.type === "message"),
        false,
      );
      assert.equal(error.partial, true);
      assert.equal(error.retryable, true);
      assert.equal(error.requestId, lastRequestId());
      assert.match(error.message, new RegExp(type));
    });

    it(`${kind}: a stream cut mid-way yields the deltas received, then one error`, async () => {
      mock.enqueue(streamCut(LONG_TEXT, 6));
      const parts = await run();
      const deltas = parts.filter((p) => p.type === "delta");
      assert.ok(deltas.length >= 1 && deltas.length < 10, `got ${deltas.length} deltas`);
      assert.equal(parts.filter((p) => p.type === "error").length, 1);
      const { error } = errorOf(parts);
      assert.equal(error.partial, true);
      assert.equal(error.requestId, lastRequestId());
      assert.equal(error.retryable, true, "a cut stream is retried by the loop");
    });

    it(`${kind}: an abort ends a slow stream quickly with a cancelled error`, async () => {
      mock.enqueue(slow(LONG_TEXT, 200));
      const controller = new AbortController();
      const parts = [];
      for await (const part of streamFor(kind)(
        configFor(kind, mock),
        makeRequest({ signal: controller.signal }),
      )) {
        parts.push(part);
        if (part.type === "start") setTimeout(() => controller.abort(), 50);
      }
      const { error } = errorOf(parts);
      assert.equal(error.message, CANCELLED_MESSAGE);
      assert.equal(error.retryable, false);
    });

    it(`${kind}: an already aborted signal ends at once without a request`, async () => {
      const before = mock.requests.length;
      const controller = new AbortController();
      controller.abort();
      const parts = await run(makeRequest({ signal: controller.signal }));
      assert.equal(parts.length, 1);
      assert.equal(errorOf(parts).error.message, CANCELLED_MESSAGE);
      assert.equal(mock.requests.length, before);
    });

    it(`${kind}: never throws, even for an unreachable URL: a retryable connection error`, async () => {
      const config = { ...configFor(kind, mock), baseUrl: "http://127.0.0.1:1/v1" };
      const parts = await collect(streamFor(kind)(config, makeRequest()));
      assert.equal(parts.length, 1);
      const { error } = errorOf(parts);
      assert.deepEqual(
        {
          status: error.status,
          retryable: error.retryable,
          partial: error.partial,
          requestId: error.requestId,
        },
        { status: null, retryable: true, partial: false, requestId: null },
      );
    });

    it(`${kind}: a flood of tiny deltas arrives complete and in order`, async () => {
      mock.enqueue(flood(2000, "x"));
      const parts = await run();
      assert.equal(parts.filter((p) => p.type === "delta").length, 2000);
      assert.equal(JSON.stringify(messageOf(parts).content).includes("x".repeat(2000)), true);
    });
  }

  it("anthropic: a 529 overloaded_error is retryable", async () => {
    mock.enqueue(overloaded());
    const { error } = errorOf(
      await collect(streamFor("anthropic")(configFor("anthropic", mock), makeRequest())),
    );
    assert.equal(error.status, 529);
    assert.equal(error.retryable, true);
    assert.match(error.message, /overloaded_error/);
  });

  it("the mock rejects a request without a key with 401 in the provider's shape", async () => {
    const anthropic = await fetch(`${mock.url}/v1/messages`, { method: "POST", body: "{}" });
    assert.equal(anthropic.status, 401);
    assert.deepEqual(await anthropic.json(), {
      type: "error",
      error: { type: "authentication_error", message: "missing API key" },
    });
    const openai = await fetch(`${mock.url}/v1/responses`, { method: "POST", body: "{}" });
    assert.equal(openai.status, 401);
    assert.equal(
      ((await openai.json()) as { error: { type: string } }).error.type,
      "authentication_error",
    );
  });
});
