// The agent's prompt queue: `submit` while a turn runs queues (FIFO, announced as
// `agent/queued`) instead of throwing; each queued prompt becomes `user/message` when its turn
// starts; cancel ends only the running turn; `withdrawQueued` and dispose take prompts back.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { openHarness, scripted } from "./scripted.ts";

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

describe("submit", () => {
  it("while a turn runs, prompts queue in order and each runs as its own turn", async () => {
    const script = scripted({ text: "one", delayMs: 5 }, { text: "two" }, { text: "three" });
    const h = await openHarness(script);
    const queued: string[] = [];
    h.bus.on("agent/queued", ({ text }) => queued.push(text));
    const outcomes = await Promise.all([
      h.agent.submit("first"),
      h.agent.submit("second"), // `run` is `submit`: it queues, it no longer throws
      h.agent.submit("third"),
    ]);
    h.agent.dispose();
    assert.deepEqual(queued, ["second", "third"], "only prompts that wait are announced");
    assert.deepEqual(
      outcomes.map((o) => [o.turn, o.reason]),
      [
        [0, "completed"],
        [1, "completed"],
        [2, "completed"],
      ],
    );
    assert.deepEqual(
      ofType(h.events, "user/message").map((m) => m.text),
      ["first", "second", "third"],
    );
    // Each turn's prompt comes after the previous turn's end: turns never overlap.
    const order = h.events
      .filter((e) => e.type === "user/message" || e.type === "turn/end")
      .map((e) => e.type);
    assert.deepEqual(order, [
      "user/message",
      "turn/end",
      "user/message",
      "turn/end",
      "user/message",
      "turn/end",
    ]);
  });

  it("a turn's outcome settles before any event of the next queued turn", async () => {
    const h = await openHarness(scripted({ text: "one" }, { text: "two" }));
    const seen: string[] = [];
    h.bus.on("session/event", (event) => {
      if (event.type === "user/message") seen.push(`event:${event.text}`);
    });
    const first = h.agent.submit("first").then(() => seen.push("settled:first"));
    const second = h.agent.submit("second").then(() => seen.push("settled:second"));
    await Promise.all([first, second]);
    h.agent.dispose();
    assert.deepEqual(seen, ["event:first", "settled:first", "event:second", "settled:second"]);
  });

  it("cancel ends the running turn only: the queued prompt still runs after it", async () => {
    const script = scripted({ text: "a long answer that streams", delayMs: 10 }, { text: "next" });
    const h = await openHarness(script);
    h.bus.on("session/event", (event) => {
      if (event.type === "assistant/chunk" && event.turn === 0) h.agent.cancel();
    });
    const first = h.agent.submit("first");
    const second = h.agent.submit("second");
    assert.equal((await first).reason, "cancelled");
    assert.equal((await second).reason, "completed");
    h.agent.dispose();
    assert.deepEqual(
      ofType(h.events, "turn/end").map((e) => e.reason),
      ["cancelled", "completed"],
    );
  });

  it("withdrawQueued takes queued prompts back; they never reach the log", async () => {
    const h = await openHarness(scripted({ text: "one", delayMs: 5 }));
    const first = h.agent.submit("first");
    const second = h.agent.submit("second");
    const third = h.agent.submit("third");
    assert.deepEqual(h.agent.queued, ["second", "third"]);
    assert.deepEqual(h.agent.withdrawQueued(), ["second", "third"]);
    assert.deepEqual(h.agent.queued, []);
    assert.deepEqual(await second, { reason: "withdrawn", text: "second" });
    assert.deepEqual(await third, { reason: "withdrawn", text: "third" });
    assert.equal((await first).reason, "completed");
    h.agent.dispose();
    const texts = ofType(readSession(h.agent.logPath).events, "user/message").map((m) => m.text);
    assert.deepEqual(texts, ["first"]);
  });

  it("dispose withdraws what is queued and ends the running turn", async () => {
    const h = await openHarness(scripted({ text: "a slow answer", delayMs: 20 }));
    const first = h.agent.submit("first");
    const second = h.agent.submit("second");
    h.bus.on("session/event", (event) => {
      if (event.type === "assistant/chunk") h.agent.dispose();
    });
    assert.equal((await second).reason, "withdrawn");
    await first.catch(() => undefined);
    const events = readSession(h.agent.logPath).events;
    assert.ok(!JSON.stringify(events).includes("second"));
  });
});
