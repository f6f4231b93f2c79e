// The terminal UI's renderers against a virtual terminal (@xterm/headless): the transcript
// built from session events (Markdown answers, tool cards with diffs, rewritten and refused
// calls, thinking hidden and shown), wide characters at narrow widths, and colours off.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { visibleWidth } from "@mariozechner/pi-tui";
import { ToolPresentations } from "../../src/present/tool-presentations.ts";
import type { EventInput, SessionEvent } from "../../src/session/events.ts";
import { createTheme } from "../../src/tui/theme.ts";
import { type DisplayState, Transcript } from "../../src/tui/transcript.ts";
import { virtualScreen } from "../support/virtual-terminal.ts";

const ESC = String.fromCharCode(27);
let seq = 0;
function event(input: EventInput): SessionEvent {
  return { v: 1, seq: seq++, ts: "2026-12-01T00:00:00.000Z", h: "0", ...input } as SessionEvent;
}

const step = { turn: 0, step: 0 };

function transcriptOf(
  inputs: EventInput[],
  display: DisplayState = { showThinking: false },
  color = true,
) {
  const transcript = new Transcript(createTheme(color), display, new ToolPresentations());
  for (const input of inputs) transcript.observe(event(input));
  return transcript;
}

async function screenOf(transcript: Transcript, columns: number) {
  const lines = transcript.root.render(columns);
  const screen = virtualScreen(columns);
  await screen.show(lines);
  return { lines, screen, text: screen.rows().join("\n") };
}

function chunks(text: string, kind: "text" | "thinking" = "text", block = 0): EventInput[] {
  const out: EventInput[] = [];
  for (let at = 0; at < text.length; at += 7) {
    out.push({ type: "assistant/chunk", ...step, block, kind, delta: text.slice(at, at + 7) });
  }
  return out;
}

const allow = { outcome: "allow", by: "mode" } as const;

function editCall(extra: Partial<EventInput & { type: "tool/call" }> = {}): EventInput[] {
  return [
    {
      type: "tool/call",
      ...step,
      call_id: "c1",
      name: "edit",
      arguments: { path: "src/a.ts", old_string: "const a = 1;", new_string: "const a = 2;" },
      decision: allow,
      ...extra,
    } as EventInput,
    {
      type: "tool/result",
      call_id: "c1",
      content: "Edited src/a.ts: 1 replacement at line 3.",
      is_error: false,
      original_bytes: 40,
      delivered_bytes: 40,
      truncated: false,
      spill_path: null,
      policy_errors: [],
    },
  ];
}

describe("terminal UI renderers", () => {
  it("renders a streamed answer as Markdown: heading, list, table, highlighted code", async () => {
    const answer =
      "## Steps\n\n1. read the file\n2. fix it\n\n| name | value |\n|---|---|\n| a | 1 |\n\n```ts\nconst total: number = 42;\n```\n";
    const { text, lines } = await screenOf(
      transcriptOf([{ type: "user/message", text: "plan it" }, ...chunks(answer)]),
      60,
    );
    assert.match(text, /› plan it/);
    assert.match(text, /^Steps$/m, "the heading without its ##");
    assert.match(text, /1\. read the file/);
    assert.match(text, /│ name │ value │/);
    assert.match(text, /const total: number = 42;/);
    const code = lines.find((line) => line.includes("42"));
    assert.ok(code?.includes(`${ESC}[`), "the code block is highlighted");
  });

  it("shows an edit's card with its title, summary and a coloured diff", async () => {
    const { text, screen } = await screenOf(transcriptOf(editCall()), 80);
    assert.match(text, /● edit src\/a\.ts/);
    assert.match(text, /└ Edited src\/a\.ts: 1 replacement at line 3\./);
    assert.match(text, /^\s+-const a = 1;$/m);
    assert.match(text, /^\s+\+const a = 2;$/m);
    assert.equal(screen.colorOf("+const a = 2;"), 2, "added lines are green");
    assert.equal(screen.colorOf("-const a = 1;"), 1, "removed lines are red");
  });

  it("marks a rewritten call and shows what the model asked for", async () => {
    const rewritten = editCall({
      original_arguments: { path: "src/a.ts", old_string: "x", new_string: "y" },
      rewritten_by: "plugin:guard",
      rewrite_reason: "normalised the path",
    });
    const { text } = await screenOf(transcriptOf(rewritten), 100);
    assert.match(text, /↻ rewritten by plugin:guard: normalised the path/);
    assert.match(text, /model asked: \{"path":"src\/a\.ts","old_string":"x","new_string":"y"\}/);
  });

  it("shows a refused call with who refused it and why", async () => {
    const refused: EventInput = {
      type: "tool/call",
      ...step,
      call_id: "c9",
      name: "bash",
      arguments: { command: "rm -rf /" },
      decision: { outcome: "deny", by: "user", reason: "not that" },
    };
    const { text } = await screenOf(transcriptOf([refused]), 80);
    assert.match(text, /● bash rm -rf \//);
    assert.match(text, /✗ denied \(user: not that\)/);
  });

  it("hides thinking unless shown, and shows it again when toggled", async () => {
    const display = { showThinking: false };
    const transcript = transcriptOf(
      [...chunks("weighing the options", "thinking", 0), ...chunks("the answer", "text", 1)],
      display,
    );
    const hidden = await screenOf(transcript, 60);
    assert.doesNotMatch(hidden.text, /weighing/);
    assert.match(hidden.text, /the answer/);
    display.showThinking = true;
    transcript.invalidate();
    const shown = await screenOf(transcript, 60);
    assert.match(shown.text, /weighing the options/);
  });

  it("wraps East Asian wide characters and emoji within 20 columns", async () => {
    // Single-codepoint emoji: xterm, like many terminals, gives a ZWJ sequence one cell per part.
    const answer = "日本語のテキストと絵文字👍と✅が混ざった長い行です。한국어도 있습니다.";
    const { lines, screen } = await screenOf(transcriptOf(chunks(answer)), 20);
    for (const line of lines) assert.ok(visibleWidth(line) <= 20, `fits: ${line}`);
    // Nothing the terminal had to wrap itself: one row per rendered line.
    assert.equal(screen.cursorRow(), lines.length);
    const joined = screen.rows().join("").replace(/\s/g, "");
    assert.ok(joined.includes("日本語のテキスト"), joined);
  });

  it("writes no escape sequence with colours off (NO_COLOR)", async () => {
    const { lines } = await screenOf(
      transcriptOf(
        [...editCall(), ...chunks("# Title\n\n```js\nlet x = 1;\n```\n")],
        undefined,
        false,
      ),
      80,
    );
    for (const line of lines) assert.ok(!line.includes(ESC), `plain: ${JSON.stringify(line)}`);
  });

  it("shows a turn that did not complete as one line, its retries not kept", async () => {
    const failed = (will_retry: boolean): EventInput => ({
      type: "step/failed",
      ...step,
      error: "HTTP 529 overloaded",
      partial: [],
      will_retry,
    });
    const { text } = await screenOf(
      transcriptOf([
        failed(true),
        failed(false),
        { type: "turn/end", turn: 0, reason: "error", error: "the provider is\ndown" },
        { type: "turn/end", turn: 1, reason: "error", error: "a hook failed" },
        { type: "turn/end", turn: 2, reason: "max_budget" },
      ]),
      80,
    );
    assert.doesNotMatch(text, /retrying|HTTP 529/, "a retry waits on the status line");
    assert.match(text, /^✗ the request failed: the provider is down$/m);
    assert.match(text, /^✗ a hook failed$/m);
    assert.match(text, /^✗ stopped: the session reached its budget \(max_budget_usd\)$/m);
  });

  it("shows control sequences from the model, tools and files as text, never sends them", async () => {
    const hostile = "\x1b]52;c;c2VjcmV0\x07\x1b[2J\x1b[Hfake prompt";
    const events: EventInput[] = [
      ...chunks(`answer ${hostile}`),
      ...chunks(`thinking ${hostile}`, "thinking", 1),
      {
        type: "tool/call",
        ...step,
        call_id: "c1",
        name: "bash",
        arguments: { command: "echo \x1b[8mhidden \u202eevil" },
        decision: { outcome: "deny", by: "hook", reason: "no \x1b[5mblink" },
      },
      ...editCall().map((input) =>
        input.type === "tool/call"
          ? {
              ...input,
              call_id: "c2",
              arguments: { path: "a", old_string: "x\x1b[31m", new_string: "y\x9b2J" },
            }
          : { ...input, call_id: "c2" },
      ),
      { type: "turn/end", turn: 0, reason: "error", error: "bad \x1b[41mnews" },
    ];
    const transcript = transcriptOf(events, { showThinking: true }, false);
    const { lines, text } = await screenOf(transcript, 120);
    for (const line of lines)
      assert.ok(
        ![ESC, "\x07", "\x9b", "\u202e"].some((c) => line.includes(c)),
        JSON.stringify(line),
      );
    assert.match(text, /answer \\x1b\]52;c;c2VjcmV0\\x07\\x1b\[2J/);
    assert.match(text, /echo \\x1b\[8mhidden \\u202eevil/);
    assert.match(text, /\+y\\x9b2J/);
  });
});
