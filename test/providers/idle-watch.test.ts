// A provider that goes quiet ends the stream with a retryable failure naming the limit,
// through each real SDK; a slow but steady stream is not cut; no limit means none.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { streamFor } from "../../src/providers/index.ts";
import { slow, useMockProvider } from "../support/mock-provider/index.ts";
import { collect, configFor, errorOf, KINDS, makeRequest, messageOf } from "./helpers.ts";

describe("a stream that goes quiet", () => {
  const mock = useMockProvider({ each: true });
  const answer = { blocks: [{ kind: "text" as const, text: "one two three" }], chunkSize: 4 };

  for (const kind of KINDS) {
    it(`${kind}: ends with a retryable failure after the idle limit`, async () => {
      // Each chunk would come 20 s after the last: only the idle limit ends it with this error.
      mock.enqueue(slow(answer, 20_000));
      const request = makeRequest({ idleTimeoutMs: 300, onDelta: () => undefined });
      const parts = await collect(streamFor(kind)(configFor(kind, mock), request));
      const { error } = errorOf(parts);
      assert.equal(error.message, "no data from the provider for 0.3 s (stream_idle_timeout_ms)");
      assert.equal(error.retryable, true);
    });

    it(`${kind}: a slow but steady stream is not cut`, async () => {
      mock.enqueue(slow(answer, 60));
      const request = makeRequest({ idleTimeoutMs: 400, onDelta: () => undefined });
      const parts = await collect(streamFor(kind)(configFor(kind, mock), request));
      assert.ok(messageOf(parts).content.length >= 1);
    });
  }
});
