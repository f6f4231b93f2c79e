// How a bash result reads in every view (through ToolPresentations, from the log alone): a
// failing command by its exit code and the last line it printed, where errors land, not its
// first line; a rewritten call's result counted without the note the model was given.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ToolPresentations } from "../../src/present/tool-presentations.ts";
import type { EventOf } from "../../src/session/events.ts";

const envelope = { v: 1, ts: "2026-12-01T00:00:00.000Z", h: "0".repeat(64) };

function summaryOf(content: string, isError: boolean): string {
  const presentations = new ToolPresentations();
  const call: EventOf<"tool/call"> = {
    ...envelope,
    seq: 0,
    type: "tool/call",
    turn: 0,
    step: 0,
    call_id: "c1",
    name: "bash",
    arguments: { command: "npm test" },
    decision: { outcome: "allow", by: "mode" },
  };
  presentations.of(call);
  const result: EventOf<"tool/result"> = {
    ...envelope,
    seq: 1,
    type: "tool/result",
    call_id: "c1",
    content,
    is_error: isError,
    original_bytes: content.length,
    delivered_bytes: content.length,
    truncated: false,
    spill_path: null,
    policy_errors: [],
  };
  return presentations.of(result).summary;
}

describe("bash result summaries", () => {
  it("a failing command: its exit code and its last line of output", () => {
    const content =
      "> test\nrunning 3 tests\n\nAssertionError: expected 3 to equal 4\n[exit code 1]";
    assert.equal(summaryOf(content, true), "exit code 1: AssertionError: expected 3 to equal 4");
  });

  it("a failing command with no output, or killed, says how it ended", () => {
    assert.equal(summaryOf("(no output)\n[exit code 2]", true), "exit code 2");
    const killed = "partial\n[timed out after 1000 ms; the process tree was killed]";
    assert.equal(
      summaryOf(killed, true),
      "timed out after 1000 ms; the process tree was killed: partial",
    );
  });

  it("a rewritten call is counted without the rewrite note", () => {
    const note =
      "[codewhale] This bash call was rewritten by hook:wrap (add a timeout) before it ran.\n" +
      'It ran with: {"command":"timeout 60 npm test"}\n\n';
    assert.equal(summaryOf(`${note}ok\n[exit code 0]`, false), "exit code 0 · 1 line");
    assert.equal(summaryOf(`${note}bad\n[exit code 1]`, true), "exit code 1: bad");
  });
});
