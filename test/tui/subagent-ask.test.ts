// A subagent's ask in a real terminal (tmux, the loopback mock): the child's bash call asks
// through the parent's screen, the permission prompt names the child it comes from, the user's
// key answers it, and the child's call runs; the child's log records the decision as the user's.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EventOf } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { skipWithout } from "../support/system-tools.ts";
import { answer, logFiles, say, startChat, toolCall } from "../support/tui-session.ts";

describe("a subagent's ask in a terminal", { skip: skipWithout("tmux") }, () => {
  it("the prompt names the child; Allow once runs the child's call", {
    timeout: 120_000,
  }, async (t) => {
    const { screen, mock, setup } = await startChat(t);
    mock.enqueue(
      toolCall("toolu_task", "task", { description: "tidy build", prompt: "clean the build" }),
      toolCall("toolu_b1", "bash", { command: "echo child-ran-this" }),
      answer("cleaned"),
      answer("the helper cleaned it"),
    );
    say(screen, "tidy up");
    const asked = await screen.waitFor("1. Allow once", 60_000);
    assert.match(asked, /Allow bash echo child-ran-this\? \(subagent: tidy build\)/);
    screen.keys("1");
    const done = await screen.waitFor("the helper cleaned it", 60_000);
    assert.match(done, /task: tidy build\n\s+⎿ subagent · 1 tool call · .*done/);
    const child = mock.requests[2]?.body;
    assert.match(JSON.stringify(child), /child-ran-this\\n/, "the child's call ran");
    const logs = logFiles(setup.home).map((file) => readSession(file).events);
    const childLog = logs.find((events) => {
      const start = events[0];
      return start?.type === "session/start" && start.parent_call_id === "toolu_task";
    });
    const call = childLog?.find((e): e is EventOf<"tool/call"> => e.type === "tool/call");
    assert.equal(call?.decision.by, "user", "the child's log records the user's answer");
  });
});
