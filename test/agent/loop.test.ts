// The agent loop against a scripted in-process stream: event order of a step, tool round
// trips, invalid and refused calls, max_steps, the budget cap and the context window.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { openHarness, scripted, types } from "./scripted.ts";

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

describe("agent loop", () => {
  it("a text-only turn writes the step events in order and completes", async () => {
    const script = scripted({ text: "Hello there" });
    const h = await openHarness(script);
    const outcome = await h.agent.submit("hi");
    h.agent.dispose();
    assert.equal(outcome.reason, "completed");
    const names = types(h.events).filter((t) => t !== "assistant/chunk");
    assert.deepEqual(names, [
      "session/start",
      "user/message",
      "turn/start",
      "step/start",
      "assistant/message",
      "step/end",
      "turn/end",
    ]);
    const chunks = ofType(h.events, "assistant/chunk")
      .map((c) => c.delta)
      .join("");
    assert.equal(chunks, "Hello there");
    const logged = readSession(h.agent.logPath).events;
    assert.deepEqual(h.events, logged, "the bus carried exactly the log, in order, with seq and h");
    assert.ok(script.requests[0]!.system.startsWith("You are codewhale"));
  });

  it("runs a tool call and feeds its result into the next request", async () => {
    const script = scripted(
      { text: "echoing", calls: [{ id: "c1", name: "echo", args: { text: "ab", times: 2 } }] },
      { text: "done" },
    );
    const h = await openHarness(script);
    const outcome = await h.agent.submit("echo please");
    h.agent.dispose();
    assert.equal(outcome.reason, "completed");
    const after = types(h.events)
      .filter((t) => t !== "assistant/chunk")
      .slice(3);
    assert.deepEqual(after, [
      "step/start",
      "assistant/message",
      "step/end",
      "tool/call",
      "tool/result",
      "step/start",
      "assistant/message",
      "step/end",
      "turn/end",
    ]);
    const call = ofType(h.events, "tool/call")[0]!;
    assert.deepEqual(call.decision, { outcome: "allow", by: "mode", rule: "default" });
    assert.deepEqual(call.arguments, { text: "ab", times: 2 });
    const second = script.requests[1]!.messages;
    assert.deepEqual(second.at(-1), {
      role: "tool",
      call_id: "c1",
      name: "echo",
      content: "abab",
      is_error: false,
      seq: second.at(-1)!.seq,
    });
    assert.deepEqual(
      script.requests[0]!.tools.map((t) => t.name),
      ["echo", "sleep"],
    );
  });

  it("turns bad JSON, schema errors and unknown tools into error results the model sees", async () => {
    const script = scripted(
      {
        calls: [
          { id: "c1", name: "echo", args: null, raw: '{"text": ' },
          { id: "c2", name: "echo", args: { text: 5, times: -1 } },
          { id: "c3", name: "nope", args: {} },
        ],
      },
      { text: "sorry" },
    );
    const h = await openHarness(script);
    assert.equal((await h.agent.submit("go")).reason, "completed");
    h.agent.dispose();
    const results = script.requests[1]!.messages.filter((m) => m.role === "tool");
    assert.equal(results.length, 3);
    assert.ok(results.every((r) => r.role === "tool" && r.is_error));
    const [bad, invalid, unknown] = results.map((r) => (r.role === "tool" ? r.content : ""));
    assert.match(bad!, /^invalid arguments: not valid JSON/);
    assert.match(invalid!, /text: .*expected string/);
    assert.match(invalid!, /times: /);
    assert.match(unknown!, /unknown tool "nope" \(available tools: echo, sleep\)/);
    const calls = ofType(h.events, "tool/call");
    assert.deepEqual(
      calls.map((c) => c.decision.outcome),
      ["deny", "deny", "deny"],
    );
    assert.equal(calls[0]!.arguments, '{"text": ');
  });

  it("a call denied by a plugin at the pre-execute seam gets tool/call (deny) and an error result", async () => {
    const script = scripted(
      { calls: [{ id: "c1", name: "echo", args: { text: "x" } }] },
      { text: "ok" },
    );
    const h = await openHarness(script);
    h.bus.on("tools/pre-execute", () => ({
      name: "plugin:guard",
      decide: (call) =>
        call.name === "echo" ? { outcome: "deny", reason: "echo is not allowed here" } : undefined,
    }));
    await h.agent.submit("go");
    h.agent.dispose();
    const call = ofType(h.events, "tool/call")[0]!;
    assert.deepEqual(call.decision, {
      outcome: "deny",
      by: "plugin",
      rule: "guard",
      reason: "echo is not allowed here",
    });
    const result = ofType(h.events, "tool/result")[0]!;
    assert.equal(result.is_error, true);
    assert.equal(result.content, "echo is not allowed here");
  });

  it("stops at max_steps with turn/end max_steps", async () => {
    const loop = { calls: [{ id: "c", name: "echo", args: { text: "again" } }] };
    const script = scripted({ ...loop }, { ...loop }, { ...loop });
    const h = await openHarness(script, { flags: { max_steps: 2 } });
    const outcome = await h.agent.submit("loop");
    h.agent.dispose();
    assert.equal(outcome.reason, "max_steps");
    assert.equal(script.requests.length, 2);
    assert.equal(ofType(h.events, "turn/end")[0]!.reason, "max_steps");
  });

  it("stops before a request once the session cost reaches max_budget_usd", async () => {
    const expensive = { usage: { input: 1_000_000, output: 0 } };
    const call = { calls: [{ id: "c", name: "echo", args: { text: "x" } }] };
    const script = scripted({ ...call, ...expensive }, { text: "never" });
    const h = await openHarness(script, {
      flags: { max_budget_usd: 1, model: "anthropic/claude-sonnet-4-5" },
    });
    const outcome = await h.agent.submit("spend");
    h.agent.dispose();
    assert.equal(outcome.reason, "max_budget");
    assert.equal(script.requests.length, 1);
    assert.equal(ofType(h.events, "step/end")[0]!.cost, 3);
    assert.equal(outcome.error, "stopped: the session cost $3.00 reached the budget of $1.00");
  });

  it("refuses a request larger than the context window with the token count and window", async () => {
    const script = scripted({ text: "never" });
    const models = { "anthropic/tiny": { context_window: 100 } };
    const h = await openHarness(script, { flags: { model: "anthropic/tiny", models } });
    // The prompt fits the window alone (a larger one is refused unrecorded); with the system
    // prompt and the tools the request does not, and there is nothing to compact.
    const outcome = await h.agent.submit("hello world ".repeat(40));
    h.agent.dispose();
    assert.equal(outcome.reason, "error");
    assert.match(
      outcome.error ?? "",
      /about \d+ tokens exceeds the context window of 100 tokens of anthropic\/tiny/,
    );
    assert.equal(script.requests.length, 0);
    assert.equal(ofType(h.events, "turn/end")[0]!.error, outcome.error);
  });

  it("emits lifecycle events on the bus and never writes them to the log", async () => {
    const script = scripted({ text: "ok" });
    const lifecycle: string[] = [];
    const h = await openHarness(script);
    h.bus.on("agent/status", ({ status }) => void lifecycle.push(status));
    await h.agent.submit("hi");
    h.agent.dispose();
    assert.deepEqual(lifecycle, ["running", "idle"]);
    assert.ok(readSession(h.agent.logPath).events.every((e) => !e.type.startsWith("agent/")));
  });
});
