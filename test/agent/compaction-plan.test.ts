// Where a compaction cuts: never at a tool result (no orphaned call or result), the last
// prompt kept when the cut passes it, the previous summary never kept as such, and nothing to
// do when only the summary and the prompt are left.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planCompaction } from "../../src/agent/compaction-plan.ts";
import type { HistoryMessage } from "../../src/session/derive.ts";

const user = (seq: number, text: string): HistoryMessage => ({ role: "user", text, seq });
const assistant = (seq: number, text: string): HistoryMessage => ({
  role: "assistant",
  api: "anthropic",
  provider: "anthropic",
  model: "m",
  content: [
    { type: "text", text },
    { type: "tool_use", id: `t${seq}`, name: "read", input: {} },
  ],
  seq,
});
const tool = (seq: number, text: string): HistoryMessage => ({
  role: "tool",
  call_id: `t${seq - 1}`,
  name: "read",
  content: text,
  is_error: false,
  seq,
});

const big = "word ".repeat(400);

describe("planCompaction", () => {
  it("keeps the newest messages that fit, starting at an assistant message, never at a tool result", () => {
    const messages = [
      user(0, "do it"),
      assistant(1, "a"),
      tool(2, big),
      assistant(3, "b"),
      tool(4, "small"),
    ];
    const plan = planCompaction(messages, 50)!;
    assert.deepEqual(
      plan.kept.map((m) => m.seq),
      [3, 4],
    );
    assert.deepEqual(
      plan.replaced.map((m) => m.seq),
      [0, 1, 2],
    );
    assert.equal(plan.user?.seq, 0, "the prompt is kept with the summary");
  });

  it("a budget that ends inside a call's results moves the cut past them", () => {
    const messages = [user(0, "do it"), assistant(1, big), tool(2, "r")];
    const plan = planCompaction(messages, 10)!;
    assert.deepEqual(plan.kept, []);
    assert.deepEqual(
      plan.replaced.map((m) => m.seq),
      [0, 1, 2],
    );
  });

  it("has nothing to do when only the previous summary and the prompt are left", () => {
    const summary: HistoryMessage = { role: "user", text: "S", seq: 9, summary: true };
    assert.equal(planCompaction([summary, user(10, big)], 10), null);
    assert.equal(planCompaction([user(10, big)], 10), null);
    assert.equal(planCompaction([], 10), null);
  });
});
