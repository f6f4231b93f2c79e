// Steering end to end in the in-process terminal against the loopback mock provider: a message
// typed while a turn runs is queued; Enter on the empty prompt withdraws it and sends it to the
// running turn, and the model reads it in the next request of that turn, not in a new turn.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  answer,
  loggedEvents,
  ofType,
  say,
  startVirtual,
  toolCall,
} from "../support/virtual-chat.ts";

describe("steering in a terminal", { concurrency: 2 }, () => {
  it("Enter on a queued message while a turn runs sends it as steering at the next step", async (t) => {
    const { screen, mock, setup } = await startVirtual(t, ["--permission-mode", "bypass"]);
    mock.enqueue(
      toolCall("toolu_1", "bash", { command: "sleep 1.5; echo slept" }),
      answer("steered answer"),
    );
    say(screen, "take your time");
    await screen.waitFor("Esc to cancel");
    say(screen, "use the other branch");
    await screen.waitFor("queued: use the other branch");
    assert.match(screen.screen(), /Enter on an empty prompt sends the queued now, as steering/);
    screen.keys("Enter");
    const steered = await screen.waitFor("(steering)");
    assert.match(steered, /› use the other branch \(steering\)/);
    assert.doesNotMatch(steered, /queued:/);
    await screen.waitFor("steered answer");
    assert.equal(mock.requests.length, 2, "one turn of two requests, no turn for the message");
    assert.match(JSON.stringify(mock.requests[1]?.body), /use the other branch/);
    assert.doesNotMatch(JSON.stringify(mock.requests[0]?.body), /use the other branch/);
    const events = loggedEvents(setup.home);
    assert.deepEqual(
      ofType(events, "steering/message").map((e) => e.text),
      ["use the other branch"],
    );
    assert.deepEqual(
      ofType(events, "user/message").map((e) => e.text),
      ["take your time"],
    );
  });

  it("Enter on an empty prompt with nothing queued does nothing", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    mock.enqueue({ ...answer("slow and steady"), delayMs: 60, chunkSize: 2 });
    say(screen, "go");
    await screen.waitFor("Esc to cancel");
    screen.keys("Enter");
    await screen.waitFor("slow and steady");
    assert.equal(ofType(loggedEvents(setup.home), "steering/message").length, 0);
    assert.equal(mock.requests.length, 1);
  });
});
