// Retries per wire format through the real adapters and the loopback mock: each failed attempt
// (429 with retry-after, 529 overloaded, 500) is one step/failed event with the reason, the
// HTTP status, the wait before the next attempt and that attempt's number. stream-json prints
// these events as they are; test/cli/exec-retry-lines.test.ts keeps one exec run of it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EventOf } from "../../src/session/events.ts";
import { openMockAgent } from "../support/mock-agent.ts";
import {
  overloaded,
  rateLimited,
  serverError,
  useMockProvider,
} from "../support/mock-provider/index.ts";
import { KINDS } from "../support/provider-env.ts";

const mock = useMockProvider({ each: true });

describe("a step/failed event per retry, per wire format", () => {
  for (const kind of KINDS) {
    it(`${kind}: 429, 529 and 500 are each a step/failed event with the reason and the wait, then the answer`, async () => {
      const retry = "[retry]\nmax_retries = 5\ninitial_delay_ms = 20\nmax_delay_ms = 40";
      mock.enqueue(rateLimited("0.2"), overloaded(), serverError(), {
        blocks: [{ kind: "text", text: "at last" }],
      });
      const { agent, events } = await openMockAgent(mock, kind, { toml: retry });
      const outcome = await agent.submit("hi");
      await agent.close();
      assert.equal(outcome.reason, "completed", outcome.error);
      const attempts = events.filter((e) => e.type === "step/failed" || e.type === "step/start");
      assert.deepEqual(
        attempts.map((e) => e.type),
        [
          "step/start",
          "step/failed",
          "step/start",
          "step/failed",
          "step/start",
          "step/failed",
          "step/start",
        ],
        "each failed attempt is one event, before the attempt that follows it",
      );
      const failed = events.filter((e): e is EventOf<"step/failed"> => e.type === "step/failed");
      assert.deepEqual(
        failed.map((e) => [e.status, e.error, e.will_retry]),
        [
          [429, "HTTP 429 rate_limit_error: Rate limited by the mock", true],
          [529, "HTTP 529 overloaded_error: Overloaded", true],
          [500, "HTTP 500 api_error: Mock internal error", true],
        ],
      );
      const waits = failed.map((e) => e.retry!);
      assert.deepEqual(
        waits.map((w) => [w.next_attempt, w.max_attempts]),
        [
          [2, 6],
          [3, 6],
          [4, 6],
        ],
      );
      assert.ok(
        waits[0]!.delay_ms >= 200,
        `the first wait (${waits[0]!.delay_ms} ms) honours retry-after`,
      );
      for (const wait of waits.slice(1))
        assert.ok(wait.delay_ms <= 40, "backoff within max_delay_ms");
      const last = events.filter((e) => e.type === "assistant/message").at(-1);
      assert.match(JSON.stringify(last?.content), /at last/);
      assert.equal(mock.requests.length, 4);
    });
  }
});
