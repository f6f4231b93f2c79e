// Asks as events: an `ask` decision goes on the bus as `agent/ask` with the effective call, the
// original arguments of a rewritten one, its presentation, who asked and the options allowed;
// any surface answers with `agent.answer`, the first answer wins, and the wait ends with the
// turn (cancel, dispose) or at once when nobody listens. What is decided lands on `tool/call`.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentAsk } from "../../src/agent/pending-asks.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { staticToolSource } from "../../src/tools/source.ts";
import {
  echoTool,
  recordingBashTool,
  recordingWriteTool,
  type ToolRecord,
} from "../support/test-tools.ts";
import { openHarness, type Reply, scripted } from "./scripted.ts";

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

const bash = (id: string, command: string): Reply => ({
  calls: [{ id, name: "bash", args: { command } }],
});

/** A harness whose bash and write record what ran; asks are answered by the test. */
async function asking(replies: Reply[], flags = {}) {
  const ran: ToolRecord[] = [];
  const tools = [
    staticToolSource("test", [echoTool, recordingBashTool(ran), recordingWriteTool(ran)]),
  ];
  const script = scripted(...replies, { text: "done" });
  const h = await openHarness(script, { tools, refuseAsks: false, flags });
  const asks: AgentAsk[] = [];
  h.bus.on("agent/ask", (ask) => void asks.push(ask));
  return { h, ran, asks, script };
}

describe("agent/ask", () => {
  it("carries the effective call, its presentation, who asked and the options; allow once runs it", async () => {
    const { h, ran, asks } = await asking([bash("c1", "npm test")]);
    h.bus.on("agent/ask", (ask) => {
      assert.deepEqual(h.agent.pendingAsks(), [ask], "a late surface can list it");
      h.agent.answer(ask.id, { outcome: "allow" });
    });
    const outcome = await h.agent.submit("go");
    h.agent.dispose();
    assert.equal(outcome.reason, "completed");
    const [ask] = asks;
    assert.ok(ask);
    assert.equal(ask.callId, "c1");
    assert.equal(ask.sessionId, h.agent.sessionId);
    assert.equal(ask.turn, 0);
    assert.equal(ask.name, "bash");
    assert.deepEqual(ask.arguments, { command: "npm test" });
    assert.equal(ask.originalArguments, undefined);
    assert.deepEqual(ask.askedBy, { by: "mode", rule: "default" });
    assert.match(ask.reason, /default mode asks first/);
    assert.deepEqual(ask.options, ["allow_once", "allow_session", "deny"]);
    assert.equal(ask.sessionRule, "bash(npm test)");
    assert.equal(ask.presentation.kind, "execute");
    assert.match(ask.presentation.title, /npm test/);
    assert.equal(ran.length, 1);
    const decision = ofType(h.events, "tool/call")[0]!.decision;
    assert.deepEqual(decision, { outcome: "allow", by: "user", reason: ask.reason });
    assert.deepEqual(h.agent.pendingAsks(), []);
  });

  it("a rewritten call shows both argument sets; a deny's reason is what the model reads", async () => {
    const { h, ran, asks } = await asking([bash("c1", "npm test")]);
    h.bus.on("tools/pre-execute", () => ({
      name: "plugin:nice",
      decide: () => ({ rewrite: { arguments: { command: "nice npm test" }, reason: "be nice" } }),
    }));
    h.bus.on("agent/ask", (ask) => {
      h.agent.answer(ask.id, { outcome: "deny", reason: "not on a Friday" });
    });
    await h.agent.submit("go");
    h.agent.dispose();
    assert.deepEqual(asks[0]!.arguments, { command: "nice npm test" });
    assert.deepEqual(asks[0]!.originalArguments, { command: "npm test" });
    assert.equal(asks[0]!.rewrittenBy, "plugin:nice");
    assert.equal(ran.length, 0);
    const call = ofType(h.events, "tool/call")[0]!;
    assert.deepEqual(call.decision, { outcome: "deny", by: "user", reason: "not on a Friday" });
    assert.equal(ofType(h.events, "tool/result")[0]!.content, "not on a Friday");
  });

  it("the first answer wins: a second, an unknown id or the model's call id changes nothing", async () => {
    const { h, ran } = await asking([bash("c1", "rm -rf build")]);
    const results: unknown[] = [];
    // Two surfaces on one agent (a terminal and an editor): both answer.
    h.bus.on("agent/ask", (ask) => {
      results.push(h.agent.answer("c1", { outcome: "allow" }));
      results.push(h.agent.answer(ask.id, { outcome: "deny", reason: "first" }));
    });
    h.bus.on("agent/ask", (ask) => results.push(h.agent.answer(ask.id, { outcome: "allow" })));
    await h.agent.submit("go");
    h.agent.dispose();
    assert.deepEqual(
      results.map((r) => (r as { ok: boolean; error?: string }).error ?? "ok"),
      ["unknown", "ok", "answered"],
    );
    assert.equal(ran.length, 0, "the later allow did not run the call");
    assert.equal(ofType(h.events, "tool/call")[0]!.decision.reason, "first");
  });

  it("an option the ask does not offer, or a garbled answer, is refused: an ask rule's call cannot be granted for the session", async () => {
    const { h, asks } = await asking([bash("c1", "git push"), bash("c2", "git push")], {
      permissions: { ask: ["bash(git push)"] },
    });
    const refused: unknown[] = [];
    h.bus.on("agent/ask", (ask) => {
      refused.push(h.agent.answer(ask.id, { outcome: "allow", scope: "session" }));
      // What a client's JSON might say: never read as an allow.
      const garbled = [{ outcome: "yes" }, { outcome: "allow", scope: "forever" }];
      for (const answer of garbled) refused.push(h.agent.answer(ask.id, answer as never));
      h.agent.answer(ask.id, { outcome: "allow" });
    });
    await h.agent.submit("go");
    h.agent.dispose();
    assert.deepEqual(asks[0]!.options, ["allow_once", "deny"]);
    assert.equal(asks[0]!.sessionRule, undefined);
    assert.deepEqual(
      refused.map((r) => (r as { error?: string }).error),
      ["not-offered", "invalid", "invalid", "not-offered", "invalid", "invalid"],
    );
    assert.equal(asks.length, 2, "nothing was granted: the second call asks again");
  });

  it("cancel ends a waiting ask: the call is recorded as not run and a late answer is refused", async () => {
    const { h, ran, asks } = await asking([bash("c1", "make deploy")]);
    h.bus.on("agent/ask", () => setTimeout(() => h.agent.cancel(), 10));
    const outcome = await h.agent.submit("go");
    const late = h.agent.answer(asks[0]!.id, { outcome: "allow" });
    h.agent.dispose();
    assert.equal(outcome.reason, "cancelled");
    assert.equal(ran.length, 0);
    assert.deepEqual(late.ok ? "ok" : late.error, "answered");
    const call = ofType(h.events, "tool/call")[0]!;
    assert.deepEqual(call.decision, { outcome: "deny", by: "user", reason: "cancelled" });
    assert.equal(ofType(h.events, "tool/result")[0]!.interrupted, true);
  });

  it("dispose ends a waiting ask; with nobody listening, the call is denied at once", async () => {
    const waiting = await asking([bash("c1", "make")]);
    waiting.h.bus.on("agent/ask", () => setTimeout(() => waiting.h.agent.dispose(), 10));
    await waiting.h.agent.submit("go").catch(() => undefined);
    assert.deepEqual(waiting.h.agent.pendingAsks(), []);
    assert.equal(waiting.ran.length, 0);

    const script = scripted(bash("c1", "make"), { text: "done" });
    const tools = [staticToolSource("test", [recordingBashTool()])];
    const h = await openHarness(script, { tools, refuseAsks: false });
    await h.agent.submit("go");
    h.agent.dispose();
    const result = ofType(h.events, "tool/result")[0]!;
    assert.match(result.content, /no surface is attached to answer it/);
    assert.equal(ofType(h.events, "tool/call")[0]!.decision.by, "default");
  });
});
