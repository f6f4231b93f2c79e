import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deriveMessages, INTERRUPTED_RESULT, noteText } from "../../src/session/derive.ts";
import type { EventInput } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { sampleTurn, tempDir, writeSession } from "../support/session-fixtures.ts";

function derive(inputs: EventInput[]) {
  const { path } = writeSession(tempDir(), inputs);
  return deriveMessages(readSession(path).events);
}

describe("deriveMessages", () => {
  it("replays the assistant message verbatim, not rebuilt from its chunks", () => {
    const messages = derive(sampleTurn());
    assert.deepEqual(
      messages.map((m) => m.role),
      ["user", "assistant", "tool"],
    );
    const assistant = messages[1]!;
    assert.equal(assistant.role, "assistant");
    assert.deepEqual(assistant.role === "assistant" && assistant.content, [
      { type: "text", text: "Let me look." },
      { type: "tool_use", id: "toolu_1", name: "ls", input: { path: "." } },
    ]);
    const tool = messages[2]!;
    assert.equal(tool.role === "tool" && tool.name, "ls");
    assert.equal(tool.role === "tool" && tool.content, "a.txt\nb.txt");
  });

  it("drops a failed partial step and keeps the retried message", () => {
    const [user, turnStart, stepStart, chunk] = sampleTurn();
    const messages = derive([
      user!,
      turnStart!,
      stepStart!,
      chunk!,
      {
        type: "step/failed",
        turn: 0,
        step: 0,
        error: "stream cut",
        partial: [{ block: 0, kind: "text", text: "Let me " }],
        will_retry: true,
      },
      ...sampleTurn().slice(2),
    ]);
    const texts = JSON.stringify(messages);
    assert.equal(messages.filter((m) => m.role === "assistant").length, 1);
    assert.ok(!texts.includes('"Let me "'));
  });

  it("turns steering into a user message at its place in the history", () => {
    const turn = sampleTurn();
    turn.splice(8, 0, { type: "steering/message", turn: 0, text: "also count them" });
    const messages = derive(turn);
    assert.deepEqual(
      messages.map((m) => (m.role === "user" ? `user:${m.text}` : m.role)),
      ["user:list the files", "assistant", "tool", "user:also count them"],
    );
  });

  it("gives a tool call without a result an interrupted error result, never a re-run", () => {
    const interrupted = sampleTurn().slice(0, 8);
    const messages = derive(interrupted);
    const last = messages.at(-1)!;
    assert.equal(last.role, "tool");
    assert.equal(last.role === "tool" && last.is_error, true);
    assert.equal(last.role === "tool" && last.content, INTERRUPTED_RESULT);
    assert.equal(last.role === "tool" && last.interrupted, true);
  });

  it("closes an interrupted call before the next user message", () => {
    const messages = derive([...sampleTurn().slice(0, 8), { type: "user/message", text: "next" }]);
    assert.deepEqual(
      messages.map((m) => m.role),
      ["user", "assistant", "tool", "user"],
    );
  });

  it("derives the history as it stood at a snapshot seq", () => {
    const { path } = writeSession(tempDir(), [...sampleTurn(), ...sampleTurn(1)]);
    const all = deriveMessages(readSession(path).events);
    const firstTurn = deriveMessages(readSession(path, { untilSeq: 10 }).events);
    assert.equal(all.length, 6);
    assert.deepEqual(firstTurn, all.slice(0, 3));
  });
});

describe("deriveMessages: steering that arrives while a request streams", () => {
  it("reaches the model after the streamed message and its tool results", () => {
    const [user, turnStart, stepStart, chunk, , message, stepEnd, call, result] = sampleTurn();
    const messages = derive([
      user!,
      turnStart!,
      stepStart!,
      chunk!,
      { type: "steering/message", turn: 0, text: "also count them" },
      message!,
      stepEnd!,
      call!,
      result!,
      { type: "step/start", turn: 0, step: 1, provider: "anthropic", model: "claude-sonnet-4-5" },
    ]);
    assert.deepEqual(
      messages.map((m) => (m.role === "user" ? `user:${m.text}` : m.role)),
      ["user:list the files", "assistant", "tool", "user:also count them"],
    );
  });
});

describe("deriveMessages: context notes and blocked prompts", () => {
  const note = (text: string, call_id?: string): EventInput => ({
    type: "context/note",
    turn: 0,
    source: call_id ? "hook:PostToolUse" : "hook:SessionStart",
    ...(call_id ? { call_id } : {}),
    text,
  });

  it("places a note at the next step boundary, after the tool results, naming its source", () => {
    const [user, turnStart, stepStart, chunk, chunk2, message, stepEnd, call, result] =
      sampleTurn();
    const messages = derive([
      note("Use pnpm."),
      user!,
      turnStart!,
      stepStart!,
      chunk!,
      chunk2!,
      message!,
      stepEnd!,
      call!,
      result!,
      note("2 warnings", "toolu_1"),
      { type: "step/start", turn: 0, step: 1, provider: "anthropic", model: "claude-sonnet-4-5" },
    ]);
    assert.deepEqual(
      messages.map((m) => (m.role === "user" ? `user:${m.text}` : m.role)),
      [
        `user:${noteText({ source: "hook:SessionStart", text: "Use pnpm." })}`,
        "user:list the files",
        "assistant",
        "tool",
        "user:[codewhale] Note from hook:PostToolUse about tool call toolu_1:\n2 warnings",
      ],
    );
    const last = messages.at(-1)!;
    assert.equal(last.role === "user" && last.note, "hook:PostToolUse");
  });

  it("never changes a message an earlier request carried: each history extends the last", () => {
    const events: EventInput[] = [...sampleTurn(), note("after the turn"), ...sampleTurn(1)];
    const { path } = writeSession(tempDir(), events);
    const all = readSession(path).events;
    let previous: unknown[] = [];
    for (const event of all.filter((e) => e.type === "step/start")) {
      const history = deriveMessages(all.filter((e) => e.seq <= event.seq));
      assert.deepEqual(history.slice(0, previous.length), previous);
      previous = history;
    }
  });

  it("skips a prompt a hook blocked, and keeps waiting notes for the next real prompt", () => {
    const messages = derive([
      note("Use pnpm."),
      { type: "user/message", text: "my secret", blocked: { by: "hook:gate.sh", reason: "no" } },
      { type: "turn/start", turn: 0 },
      { type: "turn/end", turn: 0, reason: "error", error: "prompt blocked by hook:gate.sh: no" },
      { type: "user/message", text: "hello" },
    ]);
    assert.deepEqual(
      messages.map((m) => (m.role === "user" ? m.text : m.role)),
      [noteText({ source: "hook:SessionStart", text: "Use pnpm." }), "hello"],
    );
  });
});
