// The loopback mock provider's history check (test/support/mock-provider/history-check.ts):
// a request whose history breaks a wire format's rules is answered 400 and recorded, and
// closing the mock then fails the test, so every test that uses the mock guards the rules.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { historyViolations, startMockProvider } from "../support/mock-provider/index.ts";

const call = { type: "tool_use", id: "toolu_a", name: "read", input: {} };
const result = { type: "tool_result", tool_use_id: "toolu_a", content: "x" };
const text = (t: string) => ({ type: "text", text: t });

describe("the mock provider's history rules", () => {
  it("Anthropic: calls answered first in the next user message, user first, roles alternating, ids unique", () => {
    const ok = [
      { role: "user", content: "hi" },
      { role: "assistant", content: [text("reading"), call] },
      { role: "user", content: [result, text("and then")] },
    ];
    assert.deepEqual(historyViolations("anthropic", { messages: ok }), []);
    const check = (messages: unknown[]) => historyViolations("anthropic", { messages });
    assert.deepEqual(check([ok[0], ok[1]]), [
      "tool_use toolu_a in the last message has no tool_result",
    ]);
    assert.deepEqual(check([ok[0], ok[1], { role: "user", content: "no result" }]), [
      "tool_use toolu_a has no tool_result in messages[2]",
    ]);
    assert.deepEqual(check([{ role: "user", content: [result] }]), [
      "messages[0] has a tool_result for toolu_a, not a call of the message before",
    ]);
    assert.deepEqual(check([ok[0], ok[1], { role: "user", content: [text("first"), result] }]), [
      "messages[2] has content before its tool_result blocks",
    ]);
    assert.deepEqual(check([ok[0], { role: "user", content: "again" }]), [
      "messages[0] and [1] both have role user",
    ]);
    assert.deepEqual(check([ok[1], ok[2]]), [
      "messages[0] has role assistant; the first message must be the user's",
    ]);
    assert.deepEqual(check([...ok, ok[1], ok[2]]), ["tool_use id toolu_a appears twice"]);
  });

  it("Anthropic: a server tool's use is followed by its result block in the same message", () => {
    const use = { type: "server_tool_use", id: "srvtoolu_a", name: "web_search", input: {} };
    const found = { type: "web_search_tool_result", tool_use_id: "srvtoolu_a", content: [] };
    const check = (content: unknown[]) =>
      historyViolations("anthropic", {
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content },
        ],
      });
    assert.deepEqual(check([use, found, text("answer")]), []);
    assert.deepEqual(check([use, text("answer")]), [
      "server_tool_use srvtoolu_a in messages[1] has no result block",
    ]);
    assert.deepEqual(check([found, use]), [
      "messages[1] has a web_search_tool_result for srvtoolu_a before or without its server_tool_use",
      "server_tool_use srvtoolu_a in messages[1] has no result block",
    ]);
  });

  it("Chat Completions: each tool message answers an open tool_call, every call before the next message", () => {
    const calls = { role: "assistant", content: null, tool_calls: [{ id: "c1" }, { id: "c2" }] };
    const answer = (id: string) => ({ role: "tool", tool_call_id: id, content: "x" });
    const check = (messages: unknown[]) => historyViolations("openai-chat", { messages });
    const user = { role: "user", content: "hi" };
    assert.deepEqual(check([user, calls, answer("c1"), answer("c2"), user]), []);
    assert.deepEqual(check([user, calls, answer("c1"), user]), [
      "tool_call c2 has no tool message before messages[3]",
    ]);
    assert.deepEqual(check([user, answer("c9")]), [
      "messages[1] answers c9, not an open tool_call",
    ]);
    assert.deepEqual(check([user, calls, answer("c1")]), ["tool_call c2 has no tool message"]);
  });

  it("Responses: each function_call_output follows its function_call, every call has one", () => {
    const fc = { type: "function_call", call_id: "f1", name: "read", arguments: "{}" };
    const out = { type: "function_call_output", call_id: "f1", output: "x" };
    const user = { role: "user", content: "hi" };
    const check = (input: unknown[]) => historyViolations("openai-responses", { input });
    assert.deepEqual(check([user, fc, out]), []);
    assert.deepEqual(check([user, out, fc]), [
      "input[1] is an output for f1, not an open call",
      "call f1 has no function_call_output",
    ]);
    assert.deepEqual(check([user, fc, out, fc, out]), ["function_call f1 appears twice"]);
  });

  it("Responses: a custom_tool_call is answered by a custom_tool_call_output, not a function_call_output", () => {
    const ct = { type: "custom_tool_call", call_id: "c1", name: "sql", input: "SELECT 1" };
    const custom = { type: "custom_tool_call_output", call_id: "c1", output: "x" };
    const fn = { type: "function_call_output", call_id: "c1", output: "x" };
    const user = { role: "user", content: "hi" };
    const check = (input: unknown[]) => historyViolations("openai-responses", { input });
    assert.deepEqual(check([user, ct, custom]), []);
    assert.deepEqual(check([user, ct, fn]), [
      "input[2] answers c1 with function_call_output, not custom_tool_call_output",
    ]);
    assert.deepEqual(check([user, ct]), ["call c1 has no custom_tool_call_output"]);
  });

  it("a broken history is answered 400 naming the rule, recorded, and fails the test at close", async () => {
    const mock = await startMockProvider();
    mock.enqueue({ blocks: [{ kind: "text", text: "never sent" }] });
    const response = await fetch(`${mock.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "k" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: [result] }] }),
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: { message: string } };
    assert.match(body.error.message, /breaks the history rules: messages\[0\] has a tool_result/);
    assert.equal(mock.violations.length, 1);
    await assert.rejects(mock.close(), /request 1 \(anthropic\) breaks the history rules/);
  });

  it("a test that breaks the rules on purpose says why, and is answered as scripted", async () => {
    const mock = await startMockProvider({ badHistory: "checks what the provider does with it" });
    mock.enqueue({ blocks: [{ kind: "text", text: "answered" }] });
    const response = await fetch(`${mock.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "k" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: [result] }] }),
    });
    assert.equal(response.status, 200);
    await response.text();
    assert.equal(mock.violations.length, 1);
    await mock.close();
  });
});
