// Steering and cancellation while a turn runs: steering is durable at once and reaches the
// model at the next step boundary; cancel aborts the stream or the running tool, records
// what arrived, and ends the turn `cancelled`.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CANCELLED_RESULT, NOT_RUN_RESULT } from "../../src/agent/tool-calls.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { openHarness, scripted } from "./scripted.ts";

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

describe("steering", () => {
  it("a message sent during a tool call reaches the model after the tool result", async () => {
    const script = scripted(
      { calls: [{ id: "c1", name: "sleep", args: { ms: 50 } }] },
      { text: "ok" },
    );
    const h = await openHarness(script);
    h.bus.on("session/event", (event) => {
      if (event.type === "tool/call") h.agent.steer("also check the tests");
    });
    await h.agent.submit("work");
    h.agent.dispose();
    const steering = ofType(h.events, "steering/message")[0]!;
    assert.equal(steering.text, "also check the tests");
    const messages = script.requests[1]!.messages;
    assert.deepEqual(
      messages.slice(-2).map((m) => m.role),
      ["tool", "user"],
    );
    const durable = readSession(h.agent.logPath).events.find((e) => e.type === "steering/message");
    assert.ok(durable, "steering is in the log");
  });

  it("a message sent while the final answer streams gets another step", async () => {
    const script = scripted({ text: "answer one", delayMs: 5 }, { text: "answer two" });
    const h = await openHarness(script);
    let sent = false;
    h.bus.on("session/event", (event) => {
      if (event.type === "assistant/chunk" && !sent) sent = h.agent.steer("wait, one more thing");
    });
    const outcome = await h.agent.submit("go");
    h.agent.dispose();
    assert.equal(outcome.reason, "completed");
    assert.equal(script.requests.length, 2);
    const last = script.requests[1]!.messages.at(-1)!;
    assert.equal(last.role === "user" && last.text, "wait, one more thing");
  });

  it("is refused when no turn runs", async () => {
    const h = await openHarness(scripted());
    assert.equal(h.agent.steer("nobody listens"), false);
    h.agent.dispose();
  });
});

describe("cancellation", () => {
  it("mid-stream: step/failed keeps the partial (no retry) and the turn ends cancelled", async () => {
    const script = scripted({ text: "a long answer that streams slowly", delayMs: 10 });
    const h = await openHarness(script);
    h.bus.on("session/event", (event) => {
      if (event.type === "assistant/chunk" && event.delta === "nswe") h.agent.cancel();
    });
    const outcome = await h.agent.submit("go");
    h.agent.dispose();
    assert.equal(outcome.reason, "cancelled");
    const failed = ofType(h.events, "step/failed")[0]!;
    assert.equal(failed.will_retry, false);
    assert.equal(failed.partial[0]!.text, "a long answe");
    assert.equal(ofType(h.events, "turn/end")[0]!.reason, "cancelled");
  });

  it("during a tool: the running call gets an interrupted result, later calls are not run", async () => {
    const script = scripted({
      calls: [
        { id: "c1", name: "sleep", args: { ms: 10_000 } },
        { id: "c2", name: "echo", args: { text: "never" } },
      ],
    });
    const h = await openHarness(script);
    h.bus.on("session/event", (event) => {
      if (event.type === "tool/call" && event.call_id === "c1")
        setTimeout(() => h.agent.cancel(), 20);
    });
    const outcome = await h.agent.submit("go");
    h.agent.dispose();
    assert.equal(outcome.reason, "cancelled");
    const results = ofType(h.events, "tool/result");
    assert.deepEqual(
      results.map((r) => [r.call_id, r.content, r.interrupted]),
      [
        ["c1", CANCELLED_RESULT, true],
        ["c2", NOT_RUN_RESULT, true],
      ],
    );
    assert.equal(ofType(h.events, "tool/call").length, 2, "every call is paired with a result");
  });
});

describe("lifecycle events", () => {
  it("are on the bus only: a queued prompt and the status changes never reach the log", async () => {
    const h = await openHarness(scripted({ text: "ok", delayMs: 5 }, { text: "two" }));
    const seen: string[] = [];
    h.bus.on("agent/queued", ({ text }) => seen.push(`queued:${text}`));
    h.bus.on("agent/status", ({ status }) => seen.push(`status:${status}`));
    let loggedWhileQueued = "";
    h.bus.on("session/event", (event) => {
      if (event.type === "assistant/chunk" && !loggedWhileQueued)
        loggedWhileQueued = JSON.stringify(readSession(h.agent.logPath).events);
    });
    const first = h.agent.submit("first");
    const second = h.agent.submit("second");
    await first;
    await second;
    h.agent.dispose();
    assert.deepEqual(seen, [
      "status:running",
      "queued:second",
      "status:idle",
      "status:running",
      "status:idle",
    ]);
    assert.ok(loggedWhileQueued.includes("first"), "the log was read while the first turn ran");
    assert.ok(
      !loggedWhileQueued.includes("second"),
      "a queued prompt is not durable until its turn",
    );
    const logged = JSON.stringify(readSession(h.agent.logPath).events);
    assert.ok(!logged.includes("agent/"), "no lifecycle event is persisted");
  });
});
