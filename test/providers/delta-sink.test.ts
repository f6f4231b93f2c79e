// The delta sink (`ProviderRequest.onDelta`), for each wire format through its real SDK: deltas
// reach the sink in order while the stream yields only start, message and error parts, and a
// sink that throws ends the stream with one error that is not retried as a network failure.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { streamFor } from "../../src/providers/index.ts";
import type { BlockKind } from "../../src/providers/types.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { collect, configFor, errorOf, KINDS, makeRequest, messageOf } from "./helpers.ts";

describe("delta sink", () => {
  const mock = useMockProvider();

  for (const kind of KINDS) {
    it(`${kind}: deltas go to the sink in order, none are yielded`, async () => {
      mock.enqueue({
        blocks: [
          { kind: "thinking", text: "Weighing it up.", signature: "sig-1==" },
          { kind: "text", text: "Hello there, world!" },
        ],
        chunkSize: 4,
      });
      const seen: Array<{ block: number; kind: BlockKind; delta: string }> = [];
      const request = makeRequest({
        onDelta: (block, k, delta) => seen.push({ block, kind: k, delta }),
      });
      const parts = await collect(streamFor(kind)(configFor(kind, mock), request));
      assert.deepEqual(
        parts.map((p) => p.type),
        ["start", "message"],
      );
      const text = (k: BlockKind) =>
        seen
          .filter((d) => d.kind === k)
          .map((d) => d.delta)
          .join("");
      assert.equal(text("text"), "Hello there, world!");
      assert.ok(seen.filter((d) => d.kind === "text").length >= 5, "one call per streamed delta");
      const blocks = new Set(seen.filter((d) => d.kind === "text").map((d) => d.block));
      assert.equal(blocks.size, 1, "every text delta names the same block");
      assert.ok(messageOf(parts).content.length >= 1);
    });

    it(`${kind}: a sink that throws ends the stream with one error, not retried`, async () => {
      mock.enqueue({ blocks: [{ kind: "text", text: "Hello there, world!" }], chunkSize: 4 });
      let calls = 0;
      const request = makeRequest({
        onDelta: () => {
          calls++;
          throw new Error("disk full");
        },
      });
      const parts = await collect(streamFor(kind)(configFor(kind, mock), request));
      const { error } = errorOf(parts);
      assert.equal(error.message, "disk full");
      assert.equal(error.retryable, false);
      assert.equal(error.partial, true);
      assert.equal(calls, 1, "the stream stops at the first failing delta");
    });
  }
});
