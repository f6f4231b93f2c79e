// The tool card against a virtual terminal: a running call's output tail (the last lines,
// escaped, gone once the result arrives), and the expanded card (Ctrl-O): full arguments, the
// model's own beside a rewrite, the whole result with its truncation marker, the redaction
// count, the full diff.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ToolPresentations } from "../../src/present/tool-presentations.ts";
import type { EventInput, SessionEvent } from "../../src/session/events.ts";
import { createTheme } from "../../src/tui/theme.ts";
import { TAIL_LINES } from "../../src/tui/tool-card.ts";
import { redactionNote } from "../../src/tui/tool-card-detail.ts";
import { Transcript } from "../../src/tui/transcript.ts";
import { resultEvent } from "../support/session-fixtures.ts";

let seq = 0;
const event = (input: EventInput) =>
  ({ v: 1, seq: seq++, ts: "2026-12-01T00:00:00.000Z", h: "0", ...input }) as SessionEvent;
const step = { turn: 0, step: 0 };
const allow = { outcome: "allow", by: "mode" } as const;

function transcript(inputs: EventInput[]): Transcript {
  const view = new Transcript(createTheme(false), { showThinking: false }, new ToolPresentations());
  for (const input of inputs) view.observe(event(input));
  return view;
}
const text = (view: Transcript, width = 100) => view.root.render(width).join("\n");

function call(name: string, args: Record<string, unknown>, extra = {}): EventInput {
  return {
    type: "tool/call",
    ...step,
    call_id: "c1",
    name,
    arguments: args,
    decision: allow,
    ...extra,
  } as EventInput;
}
function result(
  content: string,
  extra: Partial<Extract<EventInput, { type: "tool/result" }>> = {},
): EventInput {
  return resultEvent("c1", content, extra);
}

describe("tool card", () => {
  it("shows the last lines of a running call's output, escaped, until its result", () => {
    const view = transcript([call("bash", { command: "make" })]);
    const lines = Array.from({ length: 9 }, (_, i) => `line ${i + 1}`);
    view.progress("c1", `${lines.join("\n")}\n\u001b[31mred\n`);
    const running = text(view);
    assert.doesNotMatch(running, /│ line 4$/m, `only the last ${TAIL_LINES} lines`);
    assert.match(running, /│ line 6$/m);
    assert.match(running, /│ \\x1b\[31mred/, "a control sequence is shown, not obeyed");
    view.observe(event(result("done\n[exit code 0]")));
    assert.doesNotMatch(text(view), /│ line/);
    assert.match(text(view), /exit code 0/);
  });

  it("previews a result's first lines, its truncation marker and how many more Ctrl-O shows", () => {
    const output = Array.from({ length: 10 }, (_, i) => `out ${i + 1}`);
    const content = `${output[0]}\n[... 500 lines omitted ...]\n${output.slice(1).join("\n")}\n[exit code 0]`;
    const view = transcript([call("bash", { command: "make" }), result(content)]);
    const card = text(view);
    assert.match(
      card,
      /^ {4}out 1\n {4}\[\.\.\. 500 lines omitted \.\.\.\]\n {4}out 2\n {4}… \+8 lines \(Ctrl-O expands\)$/m,
    );
    assert.doesNotMatch(card, /out 3|\[exit code 0\]/);
    // A short result is shown whole, with no "more" line; a read's file text is not previewed.
    const short = transcript([call("bash", { command: "pwd" }), result("/tmp/ws\n[exit code 0]")]);
    assert.match(text(short), /^ {4}\/tmp\/ws$/m);
    assert.doesNotMatch(text(short), /Ctrl-O expands/);
    const read = transcript([call("read", { path: "a.txt" }), result("     1\tsecret plan\n")]);
    assert.doesNotMatch(text(read), /secret plan/);
    // A one-line output that the summary happens to contain is still shown.
    const one = transcript([call("bash", { command: "echo 1" }), result("1\n[exit code 0]")]);
    assert.match(text(one), /^ {4}1$/m);
    // An error's message is in the summary: the preview does not repeat it; a denial has none.
    const failed = transcript([
      call("edit", { path: "a.txt" }),
      result("old_string not found\nhint: read it first", { is_error: true }),
    ]);
    assert.equal(text(failed).match(/old_string not found/g)?.length, 1);
    assert.match(text(failed), /^ {4}hint: read it first$/m);
    const denied = transcript([
      call(
        "edit",
        { path: "a.txt" },
        { decision: { outcome: "deny", by: "user", reason: "use sed" } },
      ),
      result("use sed", { is_error: true }),
    ]);
    assert.equal(text(denied).match(/use sed/g)?.length, 2, "the denial line and the summary");
  });

  it("expands to the full arguments and whole result, truncation and redactions, and collapses", () => {
    const content = `head\n[... 500 lines omitted ...]\ntoken [REDACTED:github_token] and [REDACTED:github_token]\n[exit code 0]`;
    const view = transcript([
      call("bash", { command: "cat log\necho two" }),
      result(content, { truncated: true, original_bytes: 90000 }),
    ]);
    assert.match(text(view), /2 secrets redacted \(github_token ×2\)/);
    assert.doesNotMatch(text(view), /result as the model received it/);
    assert.ok(view.toggleCard());
    const open = text(view);
    assert.match(open, /^\s+command:\n\s+cat log\n\s+echo two$/m);
    assert.match(open, /result as the model received it/);
    assert.match(open, /^\s+\[\.\.\. 500 lines omitted \.\.\.\]$/m);
    assert.match(open, /90000 bytes from the tool, \d+ to the model/);
    assert.match(open, /truncated/);
    view.toggleCard();
    assert.doesNotMatch(text(view), /result as the model/);
  });

  it("an expanded rewritten call shows the arguments run and the model's own", () => {
    const view = transcript([
      call(
        "bash",
        { command: "npm test" },
        {
          original_arguments: { command: "npm test --force" },
          rewritten_by: "hook:PreToolUse",
          rewrite_reason: "no --force",
        },
      ),
      result("ok\n[exit code 0]"),
    ]);
    view.toggleCard();
    const open = text(view);
    assert.match(open, /arguments \(as run\)\n\s+command: npm test$/m);
    assert.match(
      open,
      /↻ rewritten by hook:PreToolUse: no --force; the model asked\n\s+command: npm test --force$/m,
    );
  });

  it("an expanded edit shows the whole diff, not the first lines only", () => {
    const old = Array.from({ length: 40 }, (_, i) => `old ${i}`).join("\n");
    const next = Array.from({ length: 40 }, (_, i) => `new ${i}`).join("\n");
    const view = transcript([
      call("edit", { path: "a.txt", old_string: old, new_string: next }),
      result("Edited a.txt: 1 replacement at line 1."),
    ]);
    assert.match(text(view), /more diff lines/, "the compact card cuts the diff");
    assert.doesNotMatch(text(view), /^\s+\+new 39$/m);
    view.toggleCard();
    const open = text(view, 120);
    assert.match(open, /^\s+\+new 39$/m);
    assert.match(open, /^\s+-old 39$/m);
    assert.doesNotMatch(open, /more diff lines/);
  });

  it("counts redactions by kind from the placeholders the model was given", () => {
    assert.equal(redactionNote("nothing here"), undefined);
    assert.equal(
      redactionNote("[REDACTED:aws_access_key_id] [REDACTED:private_key] [REDACTED:private_key]"),
      "3 secrets redacted (aws_access_key_id, private_key ×2)",
    );
  });
});
