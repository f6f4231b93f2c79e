// The interactive terminal end to end in-process (virtual-chat.ts: the chat command on an xterm
// screen), against a loopback mock provider of its own per test, so the tests run side by side:
// thinking shown on demand, an edit's card, cancelling, queueing, multi-line prompts, --continue,
// /model, /mode and /new. What needs a real terminal is in interactive.test.ts (tmux).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  logFiles,
  loggedEvents,
  ofType,
  say,
  startVirtual,
  waitUntil,
} from "../support/virtual-chat.ts";

const text = (value: string) => ({ blocks: [{ kind: "text" as const, text: value }] });

describe("codewhale in a terminal, in-process", { concurrency: 3 }, () => {
  it("hides thinking by default and /thinking shows it, the log unchanged", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    mock.enqueue({
      blocks: [
        { kind: "thinking", text: "weighing two options", signature: "sig-1" },
        { kind: "text", text: "option two" },
      ],
    });
    say(screen, "choose");
    const hidden = await screen.waitFor("option two");
    assert.doesNotMatch(hidden, /weighing/);
    const before = readFileSync(logFiles(setup.home)[0]!, "utf8");
    say(screen, "/thinking");
    const shown = await screen.waitFor("thinking shown");
    assert.match(shown, /weighing two options/);
    assert.equal(readFileSync(logFiles(setup.home)[0]!, "utf8"), before, "display only");
  });

  it("shows an edit as a card with a coloured diff", async (t) => {
    const { screen, mock, setup } = await startVirtual(t, ["--permission-mode", "accept-edits"]);
    writeFileSync(join(setup.workspace, "notes.txt"), "keep\nold line\n");
    const input = { path: "notes.txt", old_string: "old line", new_string: "new line" };
    mock.enqueue(
      { blocks: [{ kind: "tool", id: "toolu_1", name: "edit", input }] },
      text("edited"),
    );
    say(screen, "fix the note");
    const shown = await screen.waitFor("edited");
    assert.match(shown, /● edit notes\.txt/);
    assert.match(shown, /^\s+-old line$/m);
    assert.match(shown, /^\s+\+new line$/m);
    assert.equal(readFileSync(join(setup.workspace, "notes.txt"), "utf8"), "keep\nnew line\n");
  });

  it("Esc cancels a running turn and the session goes on", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    mock.enqueue(
      { ...text("a slow answer that streams for a long time"), delayMs: 400, chunkSize: 2 },
      text("second answer"),
    );
    say(screen, "go slowly");
    await screen.waitFor("Esc to cancel");
    // Cancelled once its answer streams (in-process, Esc could beat the request to the mock).
    await waitUntil(screen, () => mock.requests.length === 1);
    screen.keys("Escape");
    await screen.waitFor("cancelled");
    say(screen, "again");
    await screen.waitFor("second answer");
    const ends = ofType(loggedEvents(setup.home), "turn/end").map((e) => e.reason);
    assert.deepEqual(ends, ["cancelled", "completed"]);
  });

  it("queues a message typed while a turn runs and sends it next", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    mock.enqueue(
      { ...text("first answer, slowly"), delayMs: 150, chunkSize: 2 },
      text("second answer"),
    );
    say(screen, "first");
    await screen.waitFor("Esc to cancel");
    say(screen, "and then this");
    await screen.waitFor("queued: and then this");
    const shown = await screen.waitFor("second answer");
    assert.doesNotMatch(shown, /queued:/, "no longer queued once its turn started");
    const prompts = ofType(loggedEvents(setup.home), "user/message").map((e) => e.text);
    assert.deepEqual(prompts, ["first", "and then this"]);
  });

  it("takes a multi-line prompt with \\ then Enter", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    mock.enqueue(text("got both lines"));
    screen.type("line one\\");
    screen.keys("Enter");
    say(screen, "line two");
    await screen.waitFor("got both lines");
    const [prompt] = ofType(loggedEvents(setup.home), "user/message");
    assert.equal(prompt?.text, "line one\nline two");
  });

  it("--continue reopens the newest session of this directory", async (t) => {
    const first = await startVirtual(t);
    first.mock.enqueue(text("remembered answer"));
    say(first.screen, "remember this");
    await first.screen.waitFor("remembered answer");
    first.screen.keys("C-d");
    await first.screen.waitFor("EXITED 0");
    const again = await startVirtual(t, ["--continue"], { setup: first.setup, mock: first.mock });
    const shown = await again.screen.waitFor("remembered answer");
    assert.match(shown, /› remember this/);
    assert.equal(logFiles(first.setup.home).length, 1, "the same session, no new log");
  });

  it("/model continues the session with another model, recorded as session/model", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    mock.enqueue(text("from the first model"), text("from the second model"));
    say(screen, "hello");
    await screen.waitFor("from the first model");
    say(screen, "/model anthropic/claude-mock-2");
    await screen.waitFor("model: anthropic/claude-mock-2");
    say(screen, "hello again");
    await screen.waitFor("from the second model");
    const events = loggedEvents(setup.home);
    assert.equal(ofType(events, "session/model")[0]?.model, "claude-mock-2");
    const body = mock.requests.at(-1)?.body as { model?: string } | undefined;
    assert.equal(body?.model, "claude-mock-2");
  });

  it("/model takes Claude Code's names as --model does (sonnet), also before the first prompt; an unknown name is one line and the session goes on", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    mock.enqueue(text("from sonnet"), text("still sonnet"));
    say(screen, "/model sonnet");
    await screen.waitFor("model: anthropic/claude-sonnet-4-6");
    say(screen, "hello");
    await screen.waitFor("from sonnet");
    const body = mock.requests.at(-1)?.body as { model?: string } | undefined;
    assert.equal(body?.model, "claude-sonnet-4-6");
    say(screen, "/model nonsense");
    await screen.waitFor('invalid model "nonsense": expected "provider/model"');
    say(screen, "again");
    await screen.waitFor("still sonnet");
    const last = mock.requests.at(-1)?.body as { model?: string } | undefined;
    assert.equal(last?.model, "claude-sonnet-4-6");
    const events = loggedEvents(setup.home);
    assert.equal(ofType(events, "turn/end").length, 2);
    assert.equal(logFiles(setup.home).length, 1, "the same session");
    assert.equal(ofType(events, "session/start")[0]?.model, "claude-sonnet-4-6");
  });

  it("/model alone lists the models the providers list; the one picked goes on with the session", async (t) => {
    const { screen, mock } = await startVirtual(t);
    mock.enqueue(text("first"), text("second"));
    say(screen, "hello");
    await screen.waitFor("first");
    say(screen, "/model");
    const picker = await screen.waitFor("switch the model");
    assert.match(picker, /anthropic\/claude-mock-1/);
    assert.match(picker, /anthropic\/gpt-5/);
    screen.type("anthropic/gpt");
    screen.keys("Enter");
    await screen.waitFor("model: anthropic/gpt-5");
    say(screen, "again");
    await screen.waitFor("second");
    const body = mock.requests.at(-1)?.body as { model?: string } | undefined;
    assert.equal(body?.model, "gpt-5");
  });

  it("/mode plan switches the permission mode for the next turns", async (t) => {
    const { screen } = await startVirtual(t);
    say(screen, "/mode plan");
    await screen.waitFor("permission mode: plan");
    await screen.waitFor("mode plan");
    say(screen, "/mode nonsense");
    await screen.waitFor("/mode takes one of default, accept-edits, plan, bypass; now plan");
  });

  it("/new starts a new session; Ctrl-C twice on an empty prompt exits", async (t) => {
    const { screen, mock, setup, exited } = await startVirtual(t);
    mock.enqueue(text("in the first session"), text("in the second session"));
    say(screen, "one");
    await screen.waitFor("in the first session");
    say(screen, "/new");
    await screen.waitFor("new session");
    say(screen, "two");
    await screen.waitFor("in the second session");
    assert.equal(logFiles(setup.home).length, 2);
    screen.keys("C-c");
    await screen.waitFor("Press Ctrl-C again to exit");
    screen.keys("C-c");
    assert.match(await screen.waitFor(/EXITED \d+/), /EXITED 0/);
    assert.equal(await exited, 0);
  });
});
