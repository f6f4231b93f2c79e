// A call the model is still writing, in the transcript on a virtual terminal (@xterm/headless):
// a pending card from `tool/input-start` that shows the last lines of the arguments as they
// stream (a written file's own lines, bounded, every control character escaped), the real
// card in its place once the `tool/call` comes, and nothing left when the request fails.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ToolPresentations } from "../../src/present/tool-presentations.ts";
import type { EventInput, SessionEvent } from "../../src/session/events.ts";
import { createTheme } from "../../src/tui/theme.ts";
import { Transcript } from "../../src/tui/transcript.ts";
import { virtualScreen } from "../support/virtual-terminal.ts";

const ESC = String.fromCharCode(27);
const step = { turn: 0, step: 0 };
let seq = 0;
function event(input: EventInput): SessionEvent {
  return { v: 1, seq: seq++, ts: "2026-12-01T00:00:00.000Z", h: "0", ...input } as SessionEvent;
}

function transcript(): Transcript {
  return new Transcript(createTheme(false), { showThinking: false }, new ToolPresentations());
}

async function screenOf(view: Transcript, columns = 80): Promise<string> {
  const screen = virtualScreen(columns);
  await screen.show(view.root.render(columns));
  return screen.rows().join("\n");
}

/** The JSON of `args` streamed in pieces of `size` characters as tool_input chunks. */
function inputChunks(args: unknown, size = 9, block = 1): EventInput[] {
  const json = JSON.stringify(args);
  const out: EventInput[] = [];
  for (let at = 0; at < json.length; at += size) {
    out.push({
      type: "assistant/chunk",
      ...step,
      block,
      kind: "tool_input",
      delta: json.slice(at, at + size),
    });
  }
  return out;
}

const lines = Array.from({ length: 40 }, (_, n) => `line ${n + 1}`);
const args = { path: "notes.md", content: `${lines.join("\n")}\nlast ${ESC}[31mred` };
const start = { ...step, block: 1, callId: "call_w1", tool: "write" };

describe("a tool call being written", () => {
  it("shows a pending card with the last lines of the streaming input, escaped", async () => {
    const view = transcript();
    view.inputStart(start);
    const firstHalf = inputChunks(args).slice(0, 20);
    for (const input of firstHalf) view.observe(event(input));
    const early = await screenOf(view);
    assert.match(early, /○ write writing…/);
    assert.doesNotMatch(early, /●/, "no real card yet");
    for (const input of inputChunks(args).slice(20)) view.observe(event(input));
    const text = await screenOf(view);
    assert.match(text, /○ write writing… 41 lines/);
    assert.match(text, /│ line 40$/m, "the file's own lines, decoded from the JSON");
    assert.doesNotMatch(text, /│ line 3[0-5]$/m, "only the last lines are kept");
    assert.match(text, /│ last \\x1b\[31mred/, "a control character shows as its escape");
    assert.ok(!view.root.render(80).join("\n").includes(ESC), "no raw ESC reaches the terminal");
  });

  it("puts the real card in the pending card's place when the call comes", async () => {
    const view = transcript();
    view.inputStart(start);
    for (const input of inputChunks(args)) view.observe(event(input));
    view.observe(event({ type: "assistant/chunk", ...step, block: 2, kind: "text", delta: "ok" }));
    view.observe(
      event({
        type: "tool/call",
        ...step,
        call_id: "call_w1",
        name: "write",
        arguments: args,
        decision: { outcome: "allow", by: "mode" },
      }),
    );
    const text = await screenOf(view);
    assert.doesNotMatch(text, /○|writing…|│ line 40/, "the pending card is gone");
    assert.match(text, /● write notes\.md/);
    assert.ok(text.indexOf("● write") < text.indexOf("ok"), "in the pending card's place");
  });

  it("drops the pending card when the request fails while it is written", async () => {
    const view = transcript();
    view.inputStart(start);
    for (const input of inputChunks(args).slice(0, 5)) view.observe(event(input));
    view.observe(
      event({
        type: "step/failed",
        ...step,
        error: "connection reset",
        partial: [],
        will_retry: false,
      }),
    );
    const text = await screenOf(view);
    assert.doesNotMatch(text, /○|writing…/);
  });
});
