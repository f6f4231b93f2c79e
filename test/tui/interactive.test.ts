// The interactive terminal end to end where a real terminal matters: the built CLI in tmux,
// against a loopback mock provider of its own per test, so the tests run side by side: the tty
// restored on leaving and on SIGTERM, resize, bracketed paste, the permission prompt's keys,
// a second process refused a locked session. The rest runs in-process (chat-session.test.ts).
// Each test types, waits for the screen to show what it expects (polling, never sleeping), and
// checks the session log where it matters.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { skipWithout } from "../support/system-tools.ts";
import { childOf, startTmux } from "../support/tmux.ts";
import { loggedEvents, MODEL, ofType, openedEvents, say, start } from "../support/tui-session.ts";

const text = (value: string) => ({ blocks: [{ kind: "text" as const, text: value }] });

describe("codewhale in a terminal", {
  skip: skipWithout("tmux"),
  concurrency: 3,
}, () => {
  it("streams an answer as Markdown and exits on Ctrl-D with the terminal restored", async (t) => {
    const { screen, mock } = await start(t);
    mock.enqueue(text("# Plan\n\n- first step\n- second step\n\n```js\nconst x = 1;\n```\n"));
    say(screen, "make a plan");
    const shown = await screen.waitFor("second step");
    assert.match(shown, /› make a plan/);
    assert.match(shown, /^Plan$/m);
    assert.doesNotMatch(shown, /^# Plan/m, "the heading is rendered, not shown as source");
    assert.match(shown, /const x = 1;/);
    screen.keys("C-d");
    const end = await screen.waitFor(/TTY .*END/);
    assert.match(end, /EXITED 0/);
    assert.match(end, /TTY icanon echo END/, "the tty is back in cooked mode with echo");
    assert.equal(screen.format("#{cursor_flag}"), "1", "the cursor is visible");
  });

  it("asks before bash: allowed once it runs and shows its exit code", async (t) => {
    const { screen, mock, setup } = await start(t);
    const input = { command: "echo from-bash" };
    mock.enqueue(
      { blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input }] },
      text("all done"),
    );
    say(screen, "run it");
    await screen.waitFor("Allow once");
    assert.match(screen.screen(), /Allow bash echo from-bash\?/);
    screen.keys("1");
    const shown = await screen.waitFor("all done");
    assert.match(shown, /exit code 0/);
    assert.doesNotMatch(shown, /Allow once/, "the prompt is gone once answered");
    const [call] = ofType(loggedEvents(setup.home), "tool/call");
    assert.equal(call?.decision.outcome, "allow");
    assert.equal(call?.decision.by, "user");
  });

  it("asks before bash: allowed for the session, the same call later runs unasked", async (t) => {
    const { screen, mock, setup } = await start(t);
    const call = (id: string) => ({
      blocks: [{ kind: "tool" as const, id, name: "bash", input: { command: "echo again" } }],
    });
    mock.enqueue(call("toolu_1"), text("first done"), call("toolu_2"), text("second done"));
    say(screen, "run it");
    await screen.waitFor("Allow for this session");
    screen.keys("2");
    await screen.waitFor("first done");
    say(screen, "run it again");
    await screen.waitFor("second done");
    const decisions = ofType(loggedEvents(setup.home), "tool/call").map((c) => c.decision);
    assert.equal(decisions.length, 2);
    assert.deepEqual([decisions[0]?.outcome, decisions[0]?.by], ["allow", "user"]);
    assert.equal(decisions[1]?.outcome, "allow");
    assert.notEqual(decisions[1]?.by, "user", "not asked the second time");
  });

  it("asks before bash: denied with a reason, the model reads the reason", async (t) => {
    const { screen, mock, setup } = await start(t);
    const input = { command: "rm -rf build" };
    mock.enqueue(
      { blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input }] },
      text("understood"),
    );
    say(screen, "clean up");
    await screen.waitFor("Deny, and tell the model why");
    screen.keys("5");
    await screen.waitFor("Why deny?");
    say(screen, "keep the build folder");
    const shown = await screen.waitFor("understood");
    assert.match(shown, /denied/);
    const [call] = ofType(loggedEvents(setup.home), "tool/call");
    assert.equal(call?.decision.outcome, "deny");
    assert.match(call?.decision.reason ?? "", /keep the build folder/);
    assert.match(JSON.stringify(mock.requests.at(-1)?.body), /keep the build folder/);
  });

  it("--resume shows the earlier transcript as it was shown live, and goes on", async (t) => {
    const first = await start(t);
    const input = { command: "echo resumed" };
    first.mock.enqueue(
      { blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input }] },
      text("**first** answer"),
    );
    say(first.screen, "the first prompt");
    await first.screen.waitFor("Allow once");
    first.screen.keys("1");
    const live = await first.screen.waitFor("first answer");
    first.screen.keys("C-d");
    await first.screen.waitFor("EXITED 0");
    const id = ofType(loggedEvents(first.setup.home), "session/start")[0]?.session_id ?? "";
    const again = await start(t, ["--resume", id], { setup: first.setup, mock: first.mock });
    const replayed = await again.screen.waitFor("first answer");
    const transcript = (screen: string) => screen.slice(0, screen.indexOf("first answer"));
    assert.equal(transcript(replayed), transcript(live), "the same lines, in the same order");
    again.mock.enqueue(text("second answer"));
    say(again.screen, "and more");
    await again.screen.waitFor("second answer");
    assert.equal(
      ofType(loggedEvents(first.setup.home), "turn/end").length,
      2,
      "one log, two turns",
    );
  });

  it("refuses, in one line, to open a session that another codewhale has open", async (t) => {
    const first = await start(t);
    // A session's log (and its lock) exist from its first prompt on.
    first.mock.enqueue(text("first answer"), text("still mine"));
    say(first.screen, "hello");
    await first.screen.waitFor("first answer");
    const id = ofType(await openedEvents(first.setup.home), "session/start")[0]?.session_id ?? "";
    const second = startTmux(["--model", MODEL, "--resume", id], {
      env: first.setup.env,
      cwd: first.setup.workspace,
    });
    t.after(() => second.kill());
    const refused = await second.waitFor(/TTY .*END/);
    assert.match(refused, /^codewhale: .*(in use|locked|open)/m);
    assert.doesNotMatch(refused, /\n\s+at /, "no stack trace");
    assert.match(refused, /EXITED [12]\b/);
    say(first.screen, "are you there");
    await first.screen.waitFor("still mine");
  });

  it("resizes to 80 columns and re-wraps", async (t) => {
    const { screen, mock } = await start(t, [], { columns: 120 });
    mock.enqueue(text(Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ")));
    say(screen, "say many words");
    await screen.waitFor("word29");
    screen.resize(80, 30);
    const narrow = await screen.waitFor(/^.{0,80}word29/m);
    for (const line of narrow.split("\n")) assert.ok(line.length <= 80, `fits 80 columns: ${line}`);
    assert.match(narrow, /word0/);
  });

  it("restores the terminal when killed with SIGTERM", async (t) => {
    const { screen, mock } = await start(t);
    mock.enqueue({ ...text("slow"), delayMs: 2000 });
    say(screen, "wait");
    await screen.waitFor("Esc to cancel");
    process.kill(childOf(screen.panePid()), "SIGTERM");
    const end = await screen.waitFor(/TTY .*END/);
    assert.match(end, /EXITED 130/);
    assert.match(end, /TTY icanon echo END/);
    assert.equal(screen.format("#{cursor_flag}"), "1", "the cursor is visible");
  });
  it("shows a large paste collapsed as [pasted 2,400 lines] and sends all of it", async (t) => {
    const { screen, mock, setup } = await start(t);
    const lines = Array.from({ length: 2400 }, (_, index) => `line ${index + 1} of the paste`);
    screen.paste(lines.join("\n"));
    await screen.waitFor("[pasted 2,400 lines]");
    assert.doesNotMatch(screen.screen(), /line 1200 of the paste/);
    mock.enqueue(text("got it"));
    screen.keys("Enter");
    await screen.waitFor("got it");
    const [prompt] = ofType(loggedEvents(setup.home), "user/message");
    assert.equal(prompt?.text.split("\n").length, 2400);
    assert.match(prompt?.text ?? "", /line 2400 of the paste$/);
  });
});
