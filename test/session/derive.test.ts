import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deriveMessages, INTERRUPTED_RESULT } from "../../src/session/derive.ts";
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
