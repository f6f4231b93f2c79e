// The status line while a turn runs: tokens and cost live while a request streams (estimated,
// marked `~`, priced at the model's output price), exact once the step ends, and a retry that
// waits shown until the next request starts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TUI } from "@mariozechner/pi-tui";
import type { EventInput, SessionEvent } from "../../src/session/events.ts";
import { StatusLine } from "../../src/tui/status-line.ts";
import { createTheme } from "../../src/tui/theme.ts";

let seq = 0;
const event = (input: EventInput) =>
  ({ v: 1, seq: seq++, ts: "2026-12-01T00:00:00.000Z", h: "0", ...input }) as SessionEvent;
const step = { turn: 0, step: 0 };
const usage = { input: 1000, output: 2000, cache_read: 0, cache_write: 0, reasoning: 0 };

function running(price: number | null) {
  const tui = { requestRender() {} } as unknown as TUI;
  const line = new StatusLine(tui, createTheme(false), () => 1000);
  line.outputPrice = price;
  line.setRunning(true);
  line.observe(event({ type: "turn/start", turn: 0 } as EventInput));
  return { line, text: () => line.render(120).join("\n") };
}

describe("status line", () => {
  it("counts and prices the streaming answer live, then shows the step's exact figures", (t) => {
    const { line, text } = running(25);
    t.after(() => line.dispose());
    line.observe(
      event({ type: "assistant/chunk", ...step, block: 0, kind: "text", delta: "x".repeat(4000) }),
    );
    // 1,000 estimated output tokens at $25 per million: $0.025.
    assert.match(text(), /~1(\.0)?k tokens · ~\$0\.03/);
    line.observe(event({ type: "step/end", ...step, usage, cost: 0.055 } as EventInput));
    assert.doesNotMatch(text(), /~/);
    assert.match(text(), /3(\.0)?k tokens · \$0\.06/);
  });

  it("without a known price shows tokens only while streaming", (t) => {
    const { line, text } = running(null);
    t.after(() => line.dispose());
    line.observe(
      event({ type: "assistant/chunk", ...step, block: 0, kind: "text", delta: "x".repeat(400) }),
    );
    assert.match(text(), /~100 tokens · Esc to cancel/);
  });

  it("shows a retry waiting until the next request starts", (t) => {
    const { line, text } = running(null);
    t.after(() => line.dispose());
    line.observe(
      event({
        type: "step/failed",
        ...step,
        error: "HTTP 500",
        status: 500,
        will_retry: true,
        retry: { delay_ms: 1000, next_attempt: 2, max_attempts: 3 },
      } as EventInput),
    );
    assert.match(text(), /retrying in 1(\.0)? s \(attempt 2 of 3\): HTTP 500/);
    line.observe(event({ type: "step/start", ...step, provider: "p", model: "m" } as EventInput));
    assert.doesNotMatch(text(), /retrying/);
  });
});
