// Retries in the loop: retryable failures back off (sleeps injected, jitter fixed), honour
// retry-after, give up at the attempt or time budget with one line naming provider, status
// and request id; a stream cut mid-way is recorded with its partial and retried.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { retryDelay } from "../../src/agent/retry.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { openHarness, scripted } from "./scripted.ts";

const failedOf = (events: SessionEvent[]) =>
  events.filter((e): e is EventOf<"step/failed"> => e.type === "step/failed");

const http = (status: number, extra = {}) => ({
  fail: {
    message: `HTTP ${status} api_error: boom`,
    status,
    requestId: "req_9",
    retryable: true,
    partial: false,
    ...extra,
  },
});

describe("retries", () => {
  it("backs off with full jitter, honouring retry-after, then succeeds", async () => {
    const script = scripted(http(429, { retryAfterMs: 1500 }), http(500), { text: "finally" });
    const h = await openHarness(script);
    const outcome = await h.agent.submit("hi");
    h.agent.dispose();
    assert.equal(outcome.reason, "completed");
    assert.deepEqual(h.sleeps, [1500, 500], "retry-after wins; then half of 2 × 500 ms");
    const failed = failedOf(h.events);
    assert.deepEqual(
      failed.map((f) => [f.status, f.will_retry]),
      [
        [429, true],
        [500, true],
      ],
    );
    assert.equal(script.requests.length, 3);
  });

  it("gives up after max_retries with one line: provider, HTTP status, request id, message", async () => {
    const script = scripted(http(500), http(500), http(500));
    const h = await openHarness(script, { flags: { retry: { max_retries: 2 } } });
    const outcome = await h.agent.submit("hi");
    h.agent.dispose();
    assert.equal(outcome.reason, "error");
    assert.equal(outcome.error, "anthropic HTTP 500 (request req_9): api_error: boom");
    assert.deepEqual(
      failedOf(h.events).map((f) => f.will_retry),
      [true, true, false],
    );
  });

  it("stops retrying when the next wait would pass the time budget", () => {
    const settings = {
      max_retries: 10,
      initial_delay_ms: 1000,
      max_delay_ms: 8000,
      budget_ms: 3000,
    };
    const failure = { message: "x", status: 500, requestId: null, retryable: true, partial: false };
    assert.equal(
      retryDelay(settings, failure, 0, 0, () => 0.99),
      990,
    );
    assert.equal(
      retryDelay(settings, failure, 3, 2500, () => 0.99),
      null,
    );
    assert.equal(
      retryDelay(settings, { ...failure, retryAfterMs: 5000 }, 0, 0, () => 0),
      null,
    );
  });

  it("does not retry a client error", async () => {
    const script = scripted({
      fail: { message: "HTTP 400 invalid_request_error: bad", status: 400, retryable: false },
    });
    const h = await openHarness(script);
    const outcome = await h.agent.submit("hi");
    h.agent.dispose();
    assert.equal(outcome.reason, "error");
    assert.deepEqual(h.sleeps, []);
  });

  it("records a stream cut mid-way with its partial, retries, and never replays the partial", async () => {
    const script = scripted(
      { text: "partial answ", fail: { message: "socket hang up", status: null, retryable: false } },
      { text: "whole answer" },
      { text: "next turn" },
    );
    const h = await openHarness(script);
    assert.equal((await h.agent.submit("hi")).reason, "completed");
    await h.agent.submit("again");
    h.agent.dispose();
    const [failed] = failedOf(h.events);
    assert.equal(failed!.will_retry, true);
    assert.deepEqual(failed!.partial, [{ block: 0, kind: "text", text: "partial answ" }]);
    const replay = JSON.stringify(script.requests[2]!.messages);
    assert.ok(!replay.includes("partial answ"));
    assert.ok(replay.includes("whole answer"));
  });
});
