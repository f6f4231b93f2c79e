// No turn ends with a model's tool call that was neither run nor answered: the check every loop
// test makes through the harness (scripted.ts `assertCallsAnswered`), shown to catch such a
// call; and a call cut off at the output limit, answered with an error result, never run.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CUT_CALL_RESULT } from "../../src/agent/tool-calls.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { assertCallsAnswered, openHarness, scripted } from "./scripted.ts";

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

describe("unanswered tool calls", () => {
  it("the harness check fails a turn that ends with a call neither run nor answered", async () => {
    const h = await openHarness(
      scripted({ calls: [{ id: "c1", name: "echo", args: { text: "a" } }] }, { text: "ok" }),
    );
    await h.agent.submit("go");
    h.agent.dispose();
    assert.doesNotThrow(() => assertCallsAnswered(h.events));
    const withoutResult = h.events.filter((e) => e.type !== "tool/result");
    assert.throws(() => assertCallsAnswered(withoutResult), /neither run nor answered: echo c1/);
  });

  it("a call cut off at the output limit is not run: the model reads why, and the turn goes on", async () => {
    const script = scripted(
      { text: "writing", calls: [{ id: "c1", name: "echo", args: { text: "a" }, cut: true }] },
      { text: "retried" },
    );
    const h = await openHarness(script);
    const outcome = await h.agent.submit("go");
    h.agent.dispose();
    assert.equal(outcome.reason, "completed");
    const [call] = ofType(h.events, "tool/call");
    assert.equal(call?.decision.outcome, "deny");
    const [result] = ofType(h.events, "tool/result");
    assert.equal(result?.is_error, true);
    assert.equal(result?.content, CUT_CALL_RESULT);
    assert.equal(script.requests.length, 2, "the turn went on");
    const last = script.requests[1]?.messages.at(-1);
    assert.equal(last?.role === "tool" && last.content, CUT_CALL_RESULT);
  });
});
