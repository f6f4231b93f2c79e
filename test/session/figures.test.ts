// The figures fold (src/session/figures.ts) over a real log written by the session writer:
// turns, steps, failed requests, tool calls, usage, cost and the durations from each event's
// `ts`; unknown event types (a later schema's) and unreadable times are skipped, not thrown.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EventInput, SessionEvent } from "../../src/session/events.ts";
import { FiguresFold, foldFigures } from "../../src/session/figures.ts";
import { readSession } from "../../src/session/reader.ts";
import { sampleTurn, tempDir, writeSession } from "../support/session-fixtures.ts";

const usage = (input: number, output: number) => ({
  input,
  output,
  cache_read: 1,
  cache_write: 0,
  reasoning: 2,
});

/** A turn whose first request fails and is retried, with an unpriced step. */
function retriedTurn(turn: number): EventInput[] {
  const step = { turn, step: 0 };
  return [
    { type: "user/message", text: "again" },
    { type: "turn/start", turn },
    { type: "step/start", ...step, provider: "local", model: "llama3" },
    { type: "step/failed", ...step, error: "HTTP 500", partial: [], will_retry: true },
    { type: "step/start", ...step, provider: "local", model: "llama3" },
    { type: "step/end", ...step, usage: usage(20, 7), cost: null },
    { type: "turn/end", turn, reason: "completed" },
  ];
}

/** The events with their `ts` set to `start + offsets[i]` ms. */
function timed(events: SessionEvent[], offsets: number[]): SessionEvent[] {
  return events.map((event, i) => ({
    ...event,
    ts: new Date(Date.UTC(2026, 11, 1) + offsets[i]!).toISOString(),
  }));
}

describe("the session figures fold", () => {
  it("counts a stored log's turns, steps, failures, calls, usage and known costs", () => {
    const { path } = writeSession(tempDir(), [...sampleTurn(0), ...retriedTurn(1)]);
    const figures = foldFigures(readSession(path).events);
    assert.deepEqual(
      { ...figures, turn_ms: 0, request_ms: 0, span_ms: 0 },
      {
        turns: 2,
        steps: 2,
        failed_steps: 1,
        tool_calls: 1,
        usage: { input: 30, output: 12, cache_read: 1, cache_write: 0, reasoning: 2 },
        cost: 0.0001,
        turn_ms: 0,
        request_ms: 0,
        span_ms: 0,
      },
    );
  });

  it("keeps cost null while no step had a known price", () => {
    const { path } = writeSession(tempDir(), retriedTurn(0));
    assert.equal(foldFigures(readSession(path).events).cost, null);
  });

  it("measures turns, requests (failed ones too) and the span from the events' times", () => {
    const { path } = writeSession(tempDir(), retriedTurn(0));
    const events = readSession(path).events;
    // session/start, user/message, turn/start, step/start, step/failed, step/start, step/end,
    // turn/end
    const figures = foldFigures(timed(events, [0, 5, 10, 20, 120, 1120, 1420, 1500]));
    assert.equal(figures.turn_ms, 1490);
    assert.equal(figures.request_ms, 100 + 300);
    assert.equal(figures.span_ms, 1500);
  });

  it("leaves a turn that never ended, and times it cannot read, out of the durations", () => {
    const { path } = writeSession(tempDir(), retriedTurn(0).slice(0, -1));
    const events = timed(readSession(path).events, [0, 5, 10, 20, 120, 1120, 1420]);
    events[4] = { ...events[4]!, ts: "not a time" };
    const figures = foldFigures(events);
    assert.equal(figures.turn_ms, 0);
    assert.equal(figures.request_ms, 300, "the failed request's end time is unreadable");
    assert.equal(figures.span_ms, 1420);
    assert.equal(figures.failed_steps, 1);
  });

  it("skips event types it does not know (a later schema's checkpoint)", () => {
    const { path } = writeSession(tempDir(), sampleTurn(0));
    const events = readSession(path).events;
    const future = { ...events[1]!, type: "session/checkpoint", signature: "x" };
    const fold = new FiguresFold();
    for (const event of [...events.slice(0, 2), future as unknown as SessionEvent, ...events]) {
      fold.observe(event);
    }
    assert.equal(fold.figures.turns, 1);
    assert.equal(fold.figures.steps, 1);
  });

  it("is incremental: the figures so far after each event", () => {
    const { path } = writeSession(tempDir(), sampleTurn(0));
    const fold = new FiguresFold();
    const steps: number[] = [];
    for (const event of readSession(path).events) {
      fold.observe(event);
      steps.push(fold.figures.steps);
    }
    assert.deepEqual(steps, [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1]);
  });
});
