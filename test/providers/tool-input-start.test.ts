// The start of a tool call's input (its block, call id and tool name), for each wire format
// through its real SDK against the loopback mock: handed to `onToolInputStart` before the
// first delta of its block, or yielded as a `tool_input_start` part before that block's delta
// parts when the request has no sinks.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { streamFor } from "../../src/providers/index.ts";
import type { StreamPart } from "../../src/providers/types.ts";
import { type Script, useMockProvider } from "../support/mock-provider/index.ts";
import { collect, configFor, KINDS, makeRequest } from "./helpers.ts";

const input = { path: "notes.md", content: "line one\nline two\nline three\n" };
const script: Script = {
  blocks: [
    { kind: "text", text: "Writing the notes now." },
    { kind: "tool", id: "call_w1", name: "write", input },
    { kind: "tool", id: "call_w2", name: "write", input: { path: "b.md", content: "b" } },
  ],
  chunkSize: 4,
};

type Seen =
  | { type: "start"; block: number; id: string; name: string }
  | { type: "delta"; block: number; kind: string; delta: string };

/** The arguments streamed in one block, joined. */
function argumentsOf(seen: Seen[], block: number): string {
  return seen
    .map((s) => (s.type === "delta" && s.block === block && s.kind === "tool_input" ? s.delta : ""))
    .join("");
}

function checkStarts(seen: Seen[]): void {
  const starts = seen.filter((s) => s.type === "start");
  assert.deepEqual(
    starts.map(({ id, name }) => ({ id, name })),
    [
      { id: "call_w1", name: "write" },
      { id: "call_w2", name: "write" },
    ],
  );
  for (const start of starts) {
    const at = seen.indexOf(start);
    const first = seen.findIndex((s) => s.type === "delta" && s.block === start.block);
    assert.ok(first > at, `the start of ${start.id} comes before its block's first delta`);
  }
  const [first, second] = starts;
  assert.deepEqual(JSON.parse(argumentsOf(seen, first?.block ?? -1)), input);
  assert.deepEqual(JSON.parse(argumentsOf(seen, second?.block ?? -1)), {
    path: "b.md",
    content: "b",
  });
}

describe("tool input start", () => {
  const mock = useMockProvider();

  for (const kind of KINDS) {
    it(`${kind}: each call's start (id, tool name) reaches its sink before its block's deltas`, async () => {
      mock.enqueue(script);
      const seen: Seen[] = [];
      const request = makeRequest({
        onDelta: (block, k, delta) => seen.push({ type: "delta", block, kind: k, delta }),
        onToolInputStart: (start) => seen.push({ type: "start", ...start }),
      });
      const parts = await collect(streamFor(kind)(configFor(kind, mock), request));
      assert.deepEqual(
        parts.map((p) => p.type),
        ["start", "message"],
      );
      checkStarts(seen);
    });

    it(`${kind}: without sinks each start is a part, before its block's delta parts`, async () => {
      mock.enqueue(script);
      const parts = await collect(streamFor(kind)(configFor(kind, mock), makeRequest()));
      const seen = parts.flatMap((part: StreamPart): Seen[] => {
        if (part.type === "tool_input_start") return [{ ...part, type: "start" }];
        if (part.type === "delta") return [{ ...part, type: "delta" }];
        return [];
      });
      checkStarts(seen);
    });
  }
});
