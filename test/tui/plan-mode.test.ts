// Plan mode end to end in a real terminal (tmux) against the loopback mock provider: Shift+Tab
// reaches plan mode (shown in the status line); the model's plan is shown as Markdown with the
// choices; approving with accept edits switches the mode and the model's next write of the
// same turn runs; "keep planning" sends the typed feedback to the model; `/plan <description>`
// starts plan mode and sends the description as the prompt.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { skipWithout } from "../support/system-tools.ts";
import { answer, loggedEvents, ofType, say, startChat, toolCall } from "../support/tui-session.ts";

const PLAN = "# Greeting plan\n\n1. Write **hello.txt**\n2. Check it";
const proposing = toolCall("toolu_p", "exit_plan", { plan: PLAN });
const writing = toolCall("toolu_w", "write", { path: "hello.txt", content: "hello\n" });

describe("plan mode in a terminal", { skip: skipWithout("tmux"), concurrency: 3 }, () => {
  it("Shift+Tab into plan mode; the plan is shown; approve with accept edits and the write of the same turn runs", async (t) => {
    const { screen, mock, setup } = await startChat(t);
    screen.keys("BTab");
    await screen.waitFor("mode accept-edits · ");
    screen.keys("BTab");
    await screen.waitFor("mode plan · ");
    mock.enqueue(proposing, writing, answer("All done."));
    say(screen, "add a greeting");
    const shown = await screen.waitFor("Approve this plan?");
    assert.match(shown, /Greeting plan/);
    assert.match(shown, /1\. Yes, and continue in default mode/);
    assert.match(shown, /2\. Yes, and accept edits/);
    assert.match(shown, /3\. No, keep planning: tell the model what to change/);
    screen.keys("2");
    await screen.waitFor("All done.");
    await screen.waitFor("mode accept-edits · ");
    assert.equal(readFileSync(join(setup.workspace, "hello.txt"), "utf8"), "hello\n");
    const events = loggedEvents(setup.home);
    const decided = ofType(events, "plan/decided")[0];
    assert.deepEqual([decided?.approved, decided?.mode], [true, "accept-edits"]);
    assert.match(screen.screen(), /plan approved · permission mode accept-edits/);
  });

  it("keep planning with feedback: the model reads it, and plan mode stays on", async (t) => {
    const { screen, mock, setup } = await startChat(t, ["--permission-mode", "plan"]);
    mock.enqueue(proposing, answer("Revising the plan."));
    say(screen, "add a greeting");
    await screen.waitFor("Approve this plan?");
    screen.keys("3");
    await screen.waitFor("What should change?");
    screen.type("greet in French");
    screen.keys("Enter");
    await screen.waitFor("Revising the plan.");
    assert.match(JSON.stringify(mock.requests[1]?.body), /keep planning[^"]*greet in French/);
    assert.match(screen.screen(), /keep planning: greet in French/);
    assert.match(screen.screen(), /mode plan · /);
    assert.ok(!existsSync(join(setup.workspace, "hello.txt")));
    assert.equal(ofType(loggedEvents(setup.home), "plan/decided")[0]?.feedback, "greet in French");
  });

  it("/plan <description> starts plan mode and sends the description; a write is refused until approved", async (t) => {
    const { screen, mock, setup } = await startChat(t);
    mock.enqueue(writing, proposing, answer("Stopped."));
    say(screen, "/plan add a greeting");
    const shown = await screen.waitFor("Approve this plan?");
    assert.match(shown, /permission mode: plan/);
    const events = loggedEvents(setup.home);
    assert.equal(ofType(events, "user/message")[0]?.text, "add a greeting");
    const write = ofType(events, "tool/call").find((call) => call.name === "write");
    assert.deepEqual([write?.decision.outcome, write?.decision.rule], ["deny", "plan"]);
    screen.keys("Escape");
    await screen.waitFor("Stopped.");
    assert.match(screen.screen(), /keep planning/);
    assert.match(screen.screen(), /mode plan · /);
  });
});
