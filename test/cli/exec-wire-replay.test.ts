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
  {
    // A custom (free-form) tool call: codewhale declares no custom tools, so the model reads
    // why, in the custom_tool_call_output the API requires.
    name: "responses/openai-custom-tool",
    kind: "openai-responses",
    call: { id: "call_custom_sql_001", name: "write_sql" },
  },
];

const OUTPUT_TYPES: JsonValue[] = ["function_call_output", "custom_tool_call_output"];

/** The assistant items of a request body, per wire format. */
function assistantItems(kind: ProviderApi, raw: string): JsonValue[] {
  const body = JSON.parse(raw) as { messages?: JsonValue[]; input?: JsonValue[] };
  const list = (kind === "openai-responses" ? body.input : body.messages) ?? [];
  if (kind === "openai-responses") {
    return list.filter(
      (item) => isObject(item) && item.type !== undefined && !OUTPUT_TYPES.includes(item.type),
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

  it("a custom tool call is recorded with its raw input and answered with an error the model can act on", async () => {
    mock.enqueue(replayOf("responses/openai-custom-tool"), {
      blocks: [{ kind: "text", text: "done" }],
    });
    const first = mock.requests.length;
    const run = await runExec(
      ["--model", MODEL_OF["openai-responses"], "--output-format", "stream-json", "users?"],
      execEnv(mock),
    );
    assert.equal(run.status, 0, run.stderr);
    const lines = jsonLines(run.stdout);
    const deltas = lines.filter((l) => l.type === "tool_input_delta").map((l) => l.partial_json);
    assert.equal(deltas.join(""), "SELECT * FROM users WHERE age > 25", "the input streamed");
    const call = lines.find((l) => l.type === "tool/call");
    assert.equal(call?.arguments, "SELECT * FROM users WHERE age > 25");
    const result = lines.find((l) => l.type === "tool/result");
    assert.equal(result?.is_error, true);
    assert.match(
      String(result?.content),
      /^The tool call was not run: write_sql was called as a custom tool/,
    );
    const next = JSON.parse(mock.requests[first + 1]?.raw ?? "{}") as { input: JsonValue[] };
    const output = next.input.find(
      (item) =>
        isObject(item) &&
        item.call_id === "call_custom_sql_001" &&
        item.type !== "custom_tool_call",
    );
    assert.deepEqual(isObject(output) && [output.type, output.output], [
      "custom_tool_call_output",
      result?.content,
    ]);
  });
});
