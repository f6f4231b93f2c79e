// A `task` call's card drawn from events alone (no terminal): a running child shows its latest
// calls with the earlier ones counted, folds to one line when done, and a call cut short (a
// crash, then a resume recording it interrupted) says so instead of "done"; a resumed session's
// card reads the child's events from its log.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ToolPresentations } from "../../src/present/tool-presentations.ts";
import type { EventInput, SessionEvent } from "../../src/session/events.ts";
import { createTheme } from "../../src/tui/theme.ts";
import { Transcript } from "../../src/tui/transcript.ts";
import { resultEvent } from "../support/session-fixtures.ts";

let seq = 0;
const event = (input: EventInput) =>
  ({ v: 1, seq: seq++, ts: "2026-12-01T00:00:00.000Z", h: "0", ...input }) as SessionEvent;
const allow = { outcome: "allow", by: "mode" } as const;

function call(id: string, name: string, args: Record<string, string>): EventInput {
  return {
    type: "tool/call",
    turn: 0,
    step: 0,
    call_id: id,
    name,
    arguments: args,
    decision: allow,
  };
}

function view(stored: SessionEvent[] = []): Transcript {
  return new Transcript(createTheme(false), { showThinking: false }, new ToolPresentations(), {
    presentations: () => new ToolPresentations(),
    events: () => stored,
  });
}
const text = (transcript: Transcript) => transcript.root.render(100).join("\n");
const task = call("t1", "task", { description: "survey", prompt: "look around" });
const childStart: EventInput = {
  type: "session/start",
  session_id: "child-1",
  cwd: "/w",
  version: "0",
  provider: "p",
  model: "m",
  config_fingerprint: "x",
  parent_session_id: "parent",
  parent_call_id: "t1",
};

describe("a subagent's card", () => {
  it("while the child runs: its latest four calls, the earlier ones counted; done: one line", () => {
    const transcript = view();
    transcript.observe(event(task));
    const child = (input: EventInput) =>
      transcript.subagent({ callId: "t1", sessionId: "child-1", event: event(input) });
    child(childStart);
    for (const n of [1, 2, 3, 4, 5, 6]) {
      child(call(`r${n}`, "read", { path: `file${n}.txt` }));
      child(resultEvent(`r${n}`, "x\n"));
    }
    const running = text(transcript);
    assert.match(running, /⎿ subagent · 6 tool calls · working/);
    assert.match(running, /… 2 earlier calls/);
    assert.doesNotMatch(running, /file2\.txt/);
    assert.match(running, / {4}● read file6\.txt/);
    child({ type: "turn/end", turn: 0, reason: "completed" });
    transcript.observe(event(resultEvent("t1", "all surveyed")));
    const done = text(transcript);
    assert.match(done, /⎿ subagent · 6 tool calls · done · Ctrl-O shows its calls/);
    assert.doesNotMatch(done, /file6\.txt/);
    transcript.toggleCard();
    const open = text(transcript);
    assert.match(open, /session child-1/);
    for (const n of [1, 6]) assert.match(open, new RegExp(` {4}● read file${n}\\.txt`));
  });

  it("a call cut short says interrupted; a resumed call with a link reads the child's log", () => {
    const cut = view();
    cut.observe(event(task));
    cut.observe(event(resultEvent("t1", "interrupted", { is_error: true, interrupted: true })));
    assert.match(text(cut), /⎿ subagent · 0 tool calls · stopped: interrupted/);

    const stored = [
      event(childStart),
      event(call("r1", "read", { path: "notes.txt" })),
      event(resultEvent("r1", "a\n")),
      event({ type: "turn/end", turn: 0, reason: "completed" }),
    ];
    const resumed = view(stored);
    resumed.observe(event(task));
    const link = { session_id: "child-1", seq: 3, h: "0" };
    resumed.observe(event(resultEvent("t1", "one file", { child: link })));
    assert.match(text(resumed), /⎿ subagent · 1 tool call · done/);
  });
});
