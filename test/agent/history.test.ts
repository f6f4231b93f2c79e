// `history()`: every durable event so far, those the writer still holds in memory included,
// such that a surface that subscribes and reads the history in one step sees every event of
// the session exactly once, even when it attaches while a turn is appending.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, it } from "node:test";
import type { SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { openHarness, scripted } from "./scripted.ts";

/** A late surface: subscribes, then reads the history; `all()` is what it has seen. */
function attach(h: Awaited<ReturnType<typeof openHarness>>) {
  const live: SessionEvent[] = [];
  h.bus.on("session/event", (event) => void live.push(event));
  const past = h.agent.history();
  // Before the first prompt the log is not on disk yet (docs/session-format.md).
  const onDisk = existsSync(h.agent.logPath) ? readSession(h.agent.logPath).events.length : 0;
  return { all: () => [...past, ...live], pastLength: past.length, onDisk };
}

function seqs(events: readonly SessionEvent[]): number[] {
  return events.map((event) => event.seq);
}

describe("history", () => {
  it("subscribe-then-history, while a turn appends, is gap-free and duplicate-free", async () => {
    const long = "a streamed answer, four characters per delta, long enough to last. ".repeat(4);
    const script = scripted(
      { text: long, delayMs: 1, calls: [{ id: "c1", name: "echo", args: { text: "x" } }] },
      { text: long, delayMs: 1 },
    );
    const h = await openHarness(script);
    const surfaces: Array<ReturnType<typeof attach>> = [];
    // Attached from timers (between events) and from inside a delivery (mid-event).
    for (const ms of [0, 3, 9, 20, 40]) setTimeout(() => surfaces.push(attach(h)), ms);
    let chunks = 0;
    h.bus.on("session/event", (event) => {
      if (event.type === "assistant/chunk" && ++chunks % 7 === 0) surfaces.push(attach(h));
      if (event.type === "tool/call") surfaces.push(attach(h));
    });
    h.bus.on("agent/status", () => surfaces.push(attach(h)));
    const turn = h.agent.submit("go");
    surfaces.push(attach(h));
    assert.equal((await turn).reason, "completed");
    h.agent.dispose();
    const logged = seqs(readSession(h.agent.logPath).events);
    assert.ok(surfaces.length > 10, `${surfaces.length} late surfaces attached`);
    for (const surface of surfaces) {
      // The log also holds what dispose appended after the turn (nothing without a signer).
      assert.deepEqual(seqs(surface.all()), logged);
    }
    // Mid-stream, the history held events the file did not have yet.
    assert.ok(surfaces.some((surface) => surface.pastLength > surface.onDisk));
  });

  it("a resumed session's history starts with the events of its log", async () => {
    const first = await openHarness(scripted({ text: "one" }));
    await first.agent.submit("first");
    first.agent.dispose();
    const before = seqs(readSession(first.agent.logPath).events);
    const again = await openHarness(scripted({ text: "two" }), {
      home: first.home,
      workspace: first.workspace,
      resume: first.agent.sessionId,
    });
    const surface = attach(again);
    await again.agent.submit("second");
    again.agent.dispose();
    assert.deepEqual(seqs(surface.all()).slice(0, before.length), before);
    assert.deepEqual(seqs(surface.all()), seqs(readSession(again.agent.logPath).events));
    assert.deepEqual(
      surface
        .all()
        .filter((e) => e.type === "user/message")
        .map((e) => e.type === "user/message" && e.text),
      ["first", "second"],
    );
  });
});
