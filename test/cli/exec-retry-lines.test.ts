// Retries as a script sees them, through `codewhale exec --output-format stream-json` as a child
// process against the mock: every failed attempt (429 with retry-after, 529 overloaded, 500) is
// one `step/failed` line, as it happens, with the reason, the HTTP status, the wait before the
// next attempt and that attempt's number (docs/stream-json.md, "Retries"). One kind here; each
// wire format's events at the agent level (test/agent/retry-per-wire.test.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import {
  overloaded,
  rateLimited,
  serverError,
  useMockProvider,
} from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });

describe("exec stream-json: a line per retry", () => {
  // One exec run; each wire format's events are test/agent/retry-per-wire.test.ts's.
  for (const kind of ["anthropic"] as const) {
    it(`${kind}: 429, 529 and 500 are each a step/failed line with the reason and the wait, then the answer`, async () => {
      const retry = "[retry]\nmax_retries = 5\ninitial_delay_ms = 20\nmax_delay_ms = 40";
      mock.enqueue(rateLimited("0.2"), overloaded(), serverError(), {
        blocks: [{ kind: "text", text: "at last" }],
      });
      const run = await runExec(
        ["--model", MODEL_OF[kind], "--output-format", "stream-json", "hi"],
        execEnv(mock, retry),
      );
      assert.equal(run.status, 0, run.stderr);
      const lines = jsonLines(run.stdout);
      const attempts = lines.filter((l) => l.type === "step/failed" || l.type === "step/start");
      assert.deepEqual(
        attempts.map((l) => l.type),
        [
          "step/start",
          "step/failed",
          "step/start",
          "step/failed",
          "step/start",
          "step/failed",
          "step/start",
        ],
        "each failed attempt is one line, before the attempt that follows it",
      );
      const failed = attempts.filter((l) => l.type === "step/failed");
      assert.deepEqual(
        failed.map((l) => [l.status, l.error, l.will_retry]),
        [
          [429, "HTTP 429 rate_limit_error: Rate limited by the mock", true],
          [529, "HTTP 529 overloaded_error: Overloaded", true],
          [500, "HTTP 500 api_error: Mock internal error", true],
        ],
      );
      const waits = failed.map(
        (l) => l.retry as { delay_ms: number; next_attempt: number; max_attempts: number },
      );
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
      assert.equal(lines.at(-1)?.result, "at last");
      assert.equal(mock.requests.length, 4);
    });
  }
});
