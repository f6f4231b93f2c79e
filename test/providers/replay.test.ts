// Canonical replay through the real SDKs: over a three-request tool loop, each request's
// serialised history is a byte prefix of the next one's (for Anthropic after removing the one
// moving cache_control marker), and native reasoning never reaches a different model.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { streamFor } from "../../src/providers/index.ts";
import type { HistoryMessage } from "../../src/session/derive.ts";
import { replayOf, type Script, useMockProvider } from "../support/mock-provider/index.ts";
import { comparable, HISTORY_KEY, historyPrefix } from "../support/prefix-stability.ts";
import {
  assistantFrom,
  collect,
  configFor,
  KINDS,
  makeRequest,
  messageOf,
  READ_TOOL,
  toolResult,
} from "./helpers.ts";

const SCRIPTS: Script[] = [
  {
    blocks: [
      { kind: "thinking", text: "I should read a.", signature: "sig-one" },
      { kind: "text", text: "Reading a." },
      { kind: "tool", id: "call_a", name: "read", input: { path: "a.ts" } },
    ],
  },
  {
    blocks: [
      { kind: "thinking", text: "Now b.", signature: "sig-two" },
      { kind: "tool", id: "call_b", name: "read", input: { path: "b.ts" } },
    ],
  },
  { blocks: [{ kind: "text", text: "All read." }] },
];

describe("canonical replay", () => {
  const mock = useMockProvider();

  for (const kind of KINDS) {
    it(`${kind}: each request's history is a byte prefix of the next over a tool loop`, async () => {
      const config = configFor(kind, mock);
      const stream = streamFor(kind);
      const first = mock.requests.length;
      const history: HistoryMessage[] = [{ role: "user", text: "read a then b", seq: 1 }];
      const replies = [];
      for (const [step, script] of SCRIPTS.entries()) {
        mock.enqueue(script);
        const request = makeRequest({
          messages: [...history],
          tools: [READ_TOOL],
          thinking: { budgetTokens: 2048 },
        });
        const reply = messageOf(await collect(stream(config, request)));
        replies.push(reply);
        history.push(assistantFrom(reply, "test", "model-a", 10 * step + 2));
        const call = reply.toolCalls[0];
        if (call) history.push(toolResult(call.id, `contents of step ${step}`, 10 * step + 3));
        if (step === 1)
          history.push({
            role: "user",
            text: "steer: be brief",
            seq: 10 * step + 4,
            steering: true,
          });
      }
      const raws = mock.requests.slice(first).map((r) => comparable(kind, r.raw));
      assert.equal(raws.length, 3);
      for (let n = 0; n + 1 < raws.length; n++) {
        const prefix = historyPrefix(kind, raws[n] ?? "");
        assert.ok(
          (raws[n + 1] ?? "").startsWith(prefix),
          `request ${n + 2} extends request ${n + 1}`,
        );
      }
      // The signed reasoning of the same model went back exactly as received.
      const last = raws[2] ?? "";
      for (const reply of replies.slice(0, 2)) {
        for (const item of reply.content) assert.ok(last.includes(JSON.stringify(item)));
      }
      if (kind !== "openai-chat") assert.ok(last.includes("sig-one") && last.includes("sig-two"));
      else assert.ok(last.includes('"reasoning_content":"I should read a."'));
    });
  }
});

describe("switching model", () => {
  const mock = useMockProvider();

  for (const from of KINDS) {
    for (const to of KINDS) {
      it(`${from} reasoning from model-a never reaches ${to} model-b`, async () => {
        mock.enqueue(SCRIPTS[0] as Script);
        const produced = messageOf(
          await collect(streamFor(from)(configFor(from, mock), makeRequest())),
        );
        const history: HistoryMessage[] = [
          { role: "user", text: "read a", seq: 1 },
          assistantFrom(produced, "test", "model-a", 2),
          toolResult("call_a", "contents", 3),
        ];
        mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
        const request = makeRequest({ model: "model-b", messages: history, tools: [READ_TOOL] });
        const parts = await collect(streamFor(to)(configFor(to, mock), request));
        assert.equal(parts.at(-1)?.type, "message");
        const body = JSON.parse(mock.requests.at(-1)?.raw ?? "{}") as Record<string, unknown>;
        const raw = JSON.stringify(body[HISTORY_KEY[to]]);
        for (const foreign of [
          "sig-one",
          "encrypted_content",
          "reasoning_content",
          '"signature"',
        ]) {
          assert.ok(!raw.includes(foreign), `${foreign} must not reach another model`);
        }
        assert.ok(
          raw.includes("<previous_model_thinking>\\nI should read a.\\n</previous_model_thinking>"),
        );
        assert.ok(raw.includes("Reading a.") && raw.includes("call_a"));
      });
    }
  }

  for (const to of KINDS) {
    it(`a recorded Responses custom tool call reaches ${to} model-b as a call with its input, answered`, async () => {
      mock.enqueue(replayOf("responses/openai-custom-tool"));
      const config = configFor("openai-responses", mock);
      const produced = messageOf(
        await collect(streamFor("openai-responses")(config, makeRequest())),
      );
      const history: HistoryMessage[] = [
        { role: "user", text: "users?", seq: 1 },
        assistantFrom(produced, "test", "model-a", 2),
        toolResult("call_custom_sql_001", "not run", 3),
      ];
      mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
      const request = makeRequest({ model: "model-b", messages: history });
      const parts = await collect(streamFor(to)(configFor(to, mock), request));
      assert.equal(parts.at(-1)?.type, "message", "the mock's history rules hold");
      const raw = mock.requests.at(-1)?.raw ?? "";
      assert.ok(raw.includes("SELECT * FROM users WHERE age > 25"), "the call's input");
      assert.ok(!raw.includes("custom_tool_call"), "as a function call");
    });
  }

  it("treats the same model under another provider name as foreign", async () => {
    mock.enqueue(SCRIPTS[0] as Script);
    const produced = messageOf(
      await collect(streamFor("anthropic")(configFor("anthropic", mock), makeRequest())),
    );
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    const history: HistoryMessage[] = [
      { role: "user", text: "read a", seq: 1 },
      assistantFrom(produced, "test", "model-a", 2),
      toolResult("call_a", "contents", 3),
    ];
    await collect(
      streamFor("anthropic")(
        configFor("anthropic", mock, "other"),
        makeRequest({ messages: history }),
      ),
    );
    assert.ok(!(mock.requests.at(-1)?.raw ?? "").includes("sig-one"));
  });
});
