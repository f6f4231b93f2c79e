// Permission prompts end to end in a real terminal (tmux) against the loopback mock provider:
// "always allow" writes the narrowest rule to the user or the project config, chosen and
// confirmed (a later `codewhale exec` runs the call unasked; an untrusted project's rule is
// said to wait for trust), and an edit of a protected file shows everything it will write.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { parse } from "smol-toml";
import { runExec } from "../support/exec-harness.ts";
import { skipWithout } from "../support/system-tools.ts";
import { answer, loggedEvents, ofType, say, startChat, toolCall } from "../support/tui-session.ts";

const allowIn = (file: string) =>
  (parse(readFileSync(file, "utf8")) as { permissions?: { allow?: string[] } }).permissions
    ?.allow ?? [];

describe("permission prompts in a terminal", {
  skip: skipWithout("tmux"),
  concurrency: 3,
}, () => {
  it("always allow writes the rule to the user config, confirmed, and exec then runs the call", async (t) => {
    const { screen, mock, setup } = await startChat(t);
    const input = { command: "echo always-ok" };
    mock.enqueue(toolCall("toolu_1", "bash", input), answer("ran it"));
    say(screen, "run it");
    await screen.waitFor("3. Always allow");
    screen.keys("3");
    await screen.waitFor("write it to");
    assert.match(screen.screen(), /1\. Your user config/);
    screen.keys("1");
    const confirm = await screen.waitFor("Enter writes it");
    const userFile = join(setup.home, "config.toml");
    assert.match(confirm, /Add "bash\(echo always-ok\)" to \[permissions\] allow in/);
    assert.deepEqual(allowIn(userFile), [], "nothing written before confirming");
    screen.keys("Enter");
    const shown = await screen.waitFor("ran it");
    assert.match(shown, /always allow bash\(echo always-ok\): added to/);
    assert.deepEqual(allowIn(userFile), ["bash(echo always-ok)"]);
    assert.equal(ofType(loggedEvents(setup.home), "tool/call")[0]?.decision.outcome, "allow");
    // The rule is in the config: exec, which cannot ask, now runs the same call.
    mock.enqueue(toolCall("toolu_2", "bash", input), answer("exec ran it"));
    const run = await runExec(["--model", "anthropic/claude-mock-1", "again"], setup);
    assert.equal(run.status, 0, run.stderr);
    assert.match(JSON.stringify(mock.requests.at(-1)?.body), /always-ok\\n/);
  });

  it("always allow to an untrusted project's config says it waits for trust, and writes only there", async (t) => {
    const { screen, mock, setup } = await startChat(t);
    mock.enqueue(toolCall("toolu_1", "bash", { command: "make lint" }), answer("linted"));
    say(screen, "lint");
    await screen.waitFor("3. Always allow");
    screen.keys("3");
    await screen.waitFor("2. This project's config");
    screen.keys("2");
    const confirm = await screen.waitFor("Enter writes it");
    assert.match(confirm.replace(/\s+/g, " "), /a new project file: its rules need trust/);
    screen.keys("Enter");
    await screen.waitFor("linted");
    assert.deepEqual(allowIn(join(setup.workspace, ".codewhale", "config.toml")), [
      "bash(make lint)",
    ]);
    assert.deepEqual(allowIn(join(setup.home, "config.toml")), []);
  });

  it("Esc in the always-allow steps goes back, and nothing is written", async (t) => {
    const { screen, mock, setup } = await startChat(t);
    mock.enqueue(toolCall("toolu_1", "bash", { command: "ls" }), answer("listed"));
    say(screen, "list");
    await screen.waitFor("3. Always allow");
    screen.keys("3");
    await screen.waitFor("write it to");
    screen.keys("1");
    await screen.waitFor("Enter writes it");
    screen.keys("Escape");
    await screen.waitFor("1. Allow once");
    screen.keys("1");
    await screen.waitFor("listed");
    assert.deepEqual(allowIn(join(setup.home, "config.toml")), []);
  });

  it("an edit of a protected file shows all it will write and offers no lasting allow", async (t) => {
    const { screen, mock, setup } = await startChat(t, ["--permission-mode", "accept-edits"], {
      rows: 60,
    });
    const content = Array.from({ length: 30 }, (_, i) => `echo hook line ${i + 1}`).join("\n");
    mock.enqueue(
      toolCall("toolu_1", "write", { path: ".git/hooks/pre-commit", content }),
      answer("not written"),
    );
    say(screen, "add a hook");
    const prompt = await screen.waitFor("1. Allow once");
    assert.match(prompt, /protected file \.git\/hooks\/pre-commit: all it will write is shown/);
    for (const n of [1, 15, 30]) assert.match(prompt, new RegExp(`echo hook line ${n}$`, "m"));
    assert.doesNotMatch(prompt, /more lines|for this session|Always allow/);
    screen.keys("2");
    await screen.waitFor("not written");
    const [call] = ofType(loggedEvents(setup.home), "tool/call");
    assert.equal(call?.decision.outcome, "deny");
  });
});
