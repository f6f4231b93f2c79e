// Recorded provider streams (test/fixtures/wire) through `codewhale exec` as a child process, a
// subset of wire-replay.test.ts: the recorded tool call (an unknown tool to codewhale) is
// answered with an error result, and the next request carries the assistant message as the
// provider returned it (what the log keeps), then that result.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ProviderApi } from "../../src/providers/index.ts";
import type { EventOf, JsonValue, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { replayOf, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

const CASES: Array<{ name: string; kind: ProviderApi; call: { id: string; name: string } }> = [
  {
    name: "anthropic/sdk-tool-use",
    kind: "anthropic",
    call: { id: "toolu_01NRLabsLyVHZPKxbKvkfSMn", name: "get_weather" },
  },
  {
    name: "chat/mistral-tool-no-index",
    kind: "openai-chat",
    call: { id: "gSIMJiOkT", name: "weather" },
  },
  {
    name: "chat/deepseek-tool-reasoning",
    kind: "openai-chat",
    call: { id: "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", name: "weather" },
  },
  {
    name: "responses/lmstudio-tool-call",
    kind: "openai-responses",
    call: { id: "call_2025306790300011", name: "weather" },
  },
];

/** The assistant items of a request body, per wire format. */
function assistantItems(kind: ProviderApi, raw: string): JsonValue[] {
  const body = JSON.parse(raw) as { messages?: JsonValue[]; input?: JsonValue[] };
  const list = (kind === "openai-responses" ? body.input : body.messages) ?? [];
  if (kind === "openai-responses") {
    return list.filter(
      (item) => isObject(item) && item.type !== undefined && item.type !== "function_call_output",
    );
  }
  const assistant = list.filter((m) => isObject(m) && m.role === "assistant");
  if (kind === "openai-chat") return assistant;
  return assistant.flatMap((m) => (isObject(m) && Array.isArray(m.content) ? m.content : []));
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function only<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T> {
  const found = events.filter((e): e is EventOf<T> => e.type === type);
  assert.equal(found.length, 1, `one ${type}`);
  return found[0] as EventOf<T>;
}

describe("exec: recorded streams through the CLI", () => {
  for (const { name, kind, call } of CASES) {
    it(`${name}: the call is answered and the message goes back as returned`, async () => {
      mock.enqueue(replayOf(name), { blocks: [{ kind: "text", text: "done" }] });
      const first = mock.requests.length;
      const run = await runExec(
        ["--model", MODEL_OF[kind], "--output-format", "stream-json", "weather in SF?"],
        execEnv(mock),
      );
      assert.equal(run.status, 0, run.stderr);
      const lines = jsonLines(run.stdout);
      assert.equal(lines.at(-1)?.result, "done");
      const events = readSession(String(lines[0]?.log_path)).events;
      const message = events.find(
        (e): e is EventOf<"assistant/message"> => e.type === "assistant/message",
      );
      const recorded = only(events, "tool/call");
      assert.deepEqual({ id: recorded.call_id, name: recorded.name }, call);
      const result = only(events, "tool/result");
      assert.equal(result.call_id, call.id);
      assert.equal(result.is_error, true);
      assert.equal(mock.requests.length - first, 2);
      const next = mock.requests[first + 1]?.raw ?? "{}";
      assert.deepEqual(
        assistantItems(kind, next),
        message?.content,
        "the message as the provider returned it",
      );
      assert.ok(next.includes(call.id));
    });
  }
});
