// The listing summary: the event count comes from the last line's seq when the tail shows it,
// and from counting lines when it cannot (a last line longer than the tail, damage), so a
// long log is listed without reading it all and a damaged one still gets a count.
import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
import { describe, it } from "node:test";
import { summarizeSession } from "../../src/session/summary.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { startPayload, tempDir } from "../support/session-fixtures.ts";

function logWith(deltas: string[]): SessionWriter {
  const writer = SessionWriter.create(tempDir(), startPayload);
  writer.append({ type: "user/message", text: "first prompt" });
  for (const delta of deltas)
    writer.append({ type: "assistant/chunk", turn: 0, step: 0, block: 0, kind: "text", delta });
  writer.close();
  return writer;
}

describe("session summary", () => {
  it("counts the events of a log of many megabytes", () => {
    const writer = logWith(Array.from({ length: 20_000 }, (_, i) => `${i} `.repeat(40)));
    const summary = summarizeSession(writer.path);
    assert.equal(summary.events, 20_002);
    assert.equal(summary.firstPrompt, "first prompt");
    assert.ok(summary.bytes > 4_000_000);
  });

  it("counts lines when the last line is longer than the tail it reads", () => {
    const writer = logWith(["a", "b", "x".repeat(200_000)]);
    assert.equal(summarizeSession(writer.path).events, 5);
  });

  it("leaves out a torn last line, and counts lines past a damaged one", () => {
    const writer = logWith(["a", "b"]);
    appendFileSync(writer.path, '{"seq":4,"type":"assistant/chu');
    assert.equal(summarizeSession(writer.path).events, 4);
    appendFileSync(writer.path, "\nnot json\n");
    assert.equal(summarizeSession(writer.path).events, 6, "complete lines, counted");
  });
});
