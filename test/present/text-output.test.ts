// The text view of a run from session events alone (present/text-output.ts, tool-line.ts): an
// answer streamed to a terminal never shares a line with a stderr line, thinking streams as
// `[thinking]` lines only when shown, a retry line carries its wait and attempt, diff stats
// count changed lines, and text from the model is made inert for a terminal.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TextOutput, type TextOutputOptions } from "../../src/present/text-output.ts";
import { diffStat, retryLine, terminalSafe } from "../../src/present/tool-line.ts";
import { ToolPresentations } from "../../src/present/tool-presentations.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";

const envelope = (seq: number) => ({
  v: 1,
  seq,
  ts: new Date(1_000 + seq).toISOString(),
  h: "0".repeat(64),
});

function chunk(seq: number, kind: "text" | "thinking", delta: string): SessionEvent {
  return {
    ...envelope(seq),
    type: "assistant/chunk",
    turn: 0,
    step: 0,
    block: kind === "text" ? 1 : 0,
    kind,
    delta,
  };
}

function failed(seq: number, retry?: EventOf<"step/failed">["retry"]): SessionEvent {
  return {
    ...envelope(seq),
    type: "step/failed",
    turn: 0,
    step: 0,
    error: "HTTP 429 rate_limit_error: slow down",
    status: 429,
    request_id: null,
    partial: [],
    will_retry: true,
    ...(retry ? { retry } : {}),
  };
}

/** One interleaved transcript: `1>` for stdout writes, `2>` for stderr writes. */
function render(events: SessionEvent[], options: Partial<TextOutputOptions> = {}): string[] {
  const writes: string[] = [];
  const output = new TextOutput(
    { out: (text) => writes.push(`1>${text}`), err: (text) => writes.push(`2>${text}`) },
    new ToolPresentations(),
    {
      streamAnswer: true,
      activity: true,
      showThinking: false,
      style: { color: false },
      refusal: () => undefined,
      ...options,
    },
  );
  for (const event of events) output.observe(event);
  output.answer("Hello world");
  return writes;
}

describe("text output on a terminal", () => {
  it("ends the streamed line before a stderr line, and does not print the answer twice", () => {
    const retry = { delay_ms: 2000, next_attempt: 2, max_attempts: 6 };
    const writes = render([
      chunk(0, "text", "Hello"),
      failed(1, retry),
      chunk(2, "text", "Hello world"),
    ]);
    assert.deepEqual(writes, [
      "1>Hello",
      "1>\n",
      "2>retrying in 2.0 s (attempt 2 of 6): HTTP 429\n",
      "1>Hello world",
      "1>\n",
    ]);
  });

  it("streams thinking to stderr as [thinking] lines only when shown", () => {
    const events = [chunk(0, "thinking", "Think\nmore"), chunk(1, "text", "Hello world")];
    assert.deepEqual(render(events), ["1>Hello world", "1>\n"]);
    assert.deepEqual(render(events, { showThinking: true }), [
      "2>[thinking] Think\n[thinking] more",
      "2>\n",
      "1>Hello world",
      "1>\n",
    ]);
  });

  it("prints the answer once at the end when stdout is not a terminal", () => {
    const writes = render([chunk(0, "text", "Hello world")], { streamAnswer: false });
    assert.deepEqual(writes, ["1>Hello world\n"]);
  });
});

describe("tool lines", () => {
  it("a retry without its wait recorded still says why", () => {
    assert.equal(
      retryLine(failed(0) as EventOf<"step/failed">, { color: false }),
      "retrying: HTTP 429",
    );
  });

  it("diff stats count the changed lines only", () => {
    assert.equal(diffStat({ path: "a", oldText: "a\nb\nc", newText: "a\nB\nc" }), "+1 -1");
    assert.equal(diffStat({ path: "a", oldText: null, newText: "x\ny\n" }), "+2 -0");
    assert.equal(diffStat({ path: "a", oldText: "x\n", newText: "x\ny\n" }), "+1 -0");
    assert.equal(diffStat({ path: "a", oldText: "same", newText: "same" }), "+0 -0");
  });

  it("control characters are shown, not obeyed; newlines and tabs stay", () => {
    assert.equal(
      terminalSafe("a\x1b[2Jb\x07c\rd\u009be\n\tf\u202eg"),
      "a\\x1b[2Jb\\x07c\\x0dd\\x9be\n\tf\\u202eg",
    );
  });
});
