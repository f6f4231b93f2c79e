// Resuming a session: a crash-left tool call gets an interrupted result (and is not re-run),
// the unfinished turn is closed, a model switch is recorded as `session/model`, and the
// next request replays the old history unchanged.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { INTERRUPTED_RESULT } from "../../src/session/derive.ts";
import { readSession } from "../../src/session/reader.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { sampleTurn, tempDir } from "../support/session-fixtures.ts";
import { openHarness, scripted, types } from "./scripted.ts";

/** A log that ended mid-turn: the tool call was recorded, its result never was. */
function crashedSession(sessions: string, cwd: string): string {
  const writer = SessionWriter.create(sessions, {
    cwd,
    version: "test",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    config_fingerprint: "0".repeat(64),
  });
  for (const event of sampleTurn().slice(0, -2)) writer.append(event);
  writer.close();
  return writer.id;
}

describe("resume", () => {
  it("closes a dangling tool call as interrupted, ends the open turn, and continues", async () => {
    const home = tempDir("cw-home-");
    const workspace = tempDir("cw-ws-");
    const id = crashedSession(`${home}/sessions`, workspace);
    const script = scripted({ text: "picking up" });
    const h = await openHarness(script, { home, workspace, resume: id.slice(0, 13) });
    assert.equal(h.agent.sessionId, id);
    assert.equal(h.agent.resumed, true);
    await h.agent.submit("go on");
    h.agent.dispose();
    const log = readSession(h.agent.logPath).events;
    assert.equal(log.filter((e) => e.type === "session/start").length, 1);
    const result = log.find((e) => e.type === "tool/result");
    assert.ok(
      result?.type === "tool/result" && result.interrupted && result.content === INTERRUPTED_RESULT,
    );
    const ends = log.filter((e) => e.type === "turn/end");
    assert.deepEqual(
      ends.map((e) => e.type === "turn/end" && [e.turn, e.reason]),
      [
        [0, "error"],
        [1, "completed"],
      ],
    );
    const messages = script.requests[0]!.messages;
    assert.deepEqual(
      messages.map((m) => m.role),
      ["user", "assistant", "tool", "user"],
    );
  });

  it("--effort on resuming a crashed turn is recorded after the repair closes that turn, as --model is", async () => {
    const home = tempDir("cw-home-");
    const workspace = tempDir("cw-ws-");
    const id = crashedSession(`${home}/sessions`, workspace);
    const h = await openHarness(scripted(), {
      home,
      workspace,
      resume: id,
      effortOverride: "high",
      modelOverride: "anthropic/claude-haiku-4-5",
    });
    h.agent.dispose();
    const log = types(readSession(h.agent.logPath).events);
    assert.deepEqual(log.slice(log.lastIndexOf("turn/end")), [
      "turn/end",
      "session/model",
      "session/effort",
    ]);
  });

  it("--continue picks the newest session of this cwd; --model switches and is recorded", async () => {
    const home = tempDir("cw-home-");
    const workspace = tempDir("cw-ws-");
    const first = await openHarness(scripted({ text: "one" }), { home, workspace });
    await first.agent.submit("first");
    first.agent.dispose();
    const before = readSession(first.agent.logPath).events;
    const script = scripted({ text: "two" });
    const h = await openHarness(script, {
      home,
      workspace,
      continueLatest: true,
      modelOverride: "anthropic/claude-haiku-4-5",
    });
    await h.agent.submit("second");
    h.agent.dispose();
    assert.equal(h.agent.sessionId, first.agent.sessionId);
    const after = readSession(h.agent.logPath).events;
    assert.deepEqual(after.slice(0, before.length), before, "the old log is unchanged");
    assert.deepEqual(types(after.slice(before.length)).slice(0, 2), [
      "session/model",
      "user/message",
    ]);
    const switched = after[before.length]!;
    assert.ok(switched.type === "session/model" && switched.model === "claude-haiku-4-5");
    assert.equal(script.requests[0]!.model, "claude-haiku-4-5");
    const step = after.find((e) => e.type === "step/start" && e.turn === 1);
    assert.ok(step?.type === "step/start" && step.model === "claude-haiku-4-5");
  });

  it("rejects a missing API key naming the variable, before writing anything", async () => {
    const { loadConfig } = await import("../../src/config/index.ts");
    const { resolveModel } = await import("../../src/agent/provider-resolve.ts");
    const loaded = loadConfig({ cwd: tempDir(), env: { CODEWHALE_HOME: tempDir() } });
    assert.throws(
      () => resolveModel(loaded.config, "openai/gpt-5", {}),
      (error: Error & { exitCode?: number }) =>
        error.message === 'no API key for provider "openai": set OPENAI_API_KEY' &&
        error.exitCode === 2,
    );
  });
});

describe("resume after a crash between the assistant message and its tool calls", () => {
  it("records the unrecorded calls as refused and never run, so the history stays valid", async () => {
    const { repairEvents } = await import("../../src/agent/session-open.ts");
    const sessions = tempDir("cw-sessions-");
    const writer = SessionWriter.create(sessions, {
      cwd: "/w",
      version: "test",
      provider: "anthropic",
      model: "claude-sonnet-4-6",
      config_fingerprint: "0".repeat(64),
    });
    for (const event of sampleTurn().slice(0, 7)) writer.append(event); // through step/end
    writer.close();
    const repairs = repairEvents(readSession(writer.path).events);
    assert.deepEqual(
      repairs.map((event) => event.type),
      ["tool/call", "tool/result", "turn/end"],
    );
    const call = repairs[0]!;
    assert.equal(call.type === "tool/call" && call.call_id, "toolu_1");
    assert.deepEqual(call.type === "tool/call" && call.arguments, { path: "." });
    assert.equal(call.type === "tool/call" && call.decision.outcome, "deny");
    const result = repairs[1]!;
    assert.equal(result.type === "tool/result" && result.interrupted, true);
    assert.match(result.type === "tool/result" ? result.content : "", /never run/);
  });
});
