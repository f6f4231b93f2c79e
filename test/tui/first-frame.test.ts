// A new interactive session draws its first frame before it opens (the log, the tools, the
// SessionStart hooks): under tmux, with a SessionStart hook that waits for the test, the frame
// (the session's line, the status line, the editor) is on screen while the hook still runs, and
// it does not change once the session is open; a prompt sent meanwhile is sent once it is; a
// session that fails to open after the frame ends with one line and the terminal restored.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it, type TestContext } from "node:test";
import { skipWithout } from "../support/system-tools.ts";
import { logFiles, loggedEvents, MODEL, ofType, say, start } from "../support/tui-session.ts";

/** A SessionStart hook that says it started, then waits for `release` (at most 20 s). */
function waitingHook(dir: string): string {
  const started = join(dir, "hook-started");
  const release = join(dir, "release");
  const done = join(dir, "hook-done");
  const script = `touch ${started}; i=0; while [ ! -e ${release} ] && [ $i -lt 1000 ]; do sleep 0.02; i=$((i+1)); done; touch ${done}`;
  return `[[hooks.SessionStart]]\ncommand = ${JSON.stringify(script)}\ntimeout_ms = 30000\n`;
}

/** A directory for the hook's files, removed after the test. */
function hookDir(t: TestContext): { dir: string; toml: string } {
  const dir = mkdtempSync(join(tmpdir(), "cw-first-frame-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, toml: waitingHook(dir) };
}

const logged = (home: string) => (existsSync(join(home, "sessions")) ? logFiles(home).length : 0);

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const SESSION_LINE = /session ([0-9a-f-]{36}) · (\S+)/;

describe("the first frame of a new session", {
  skip: skipWithout("tmux"),
  concurrency: 3,
}, () => {
  it("is drawn before the session opens and does not change once it is open", async (t) => {
    const { dir, toml } = hookDir(t);
    const { screen, setup, mock } = await start(t, [], { toml });
    const frame = screen.screen();
    await until(() => existsSync(join(dir, "hook-started")), "the hook to start");
    assert.ok(!existsSync(join(dir, "hook-done")), "the session is still opening");
    const shown = SESSION_LINE.exec(frame);
    assert.ok(shown, `the session's line is in the first frame:\n${frame}`);
    assert.equal(shown[2], MODEL);
    assert.match(frame, new RegExp(`${MODEL} · mode default · /help`));
    writeFileSync(join(dir, "release"), "");
    await until(() => existsSync(join(dir, "hook-done")), "the hook to end");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(screen.screen(), frame, "the frame is the same once the session is open");
    assert.equal(logged(setup.home), 0, "no log before the session's first prompt");
    mock.enqueue({ blocks: [{ kind: "text", text: "answered" }] });
    say(screen, "hello");
    await screen.waitFor("answered");
    const [begun] = ofType(loggedEvents(setup.home), "session/start");
    assert.equal(begun?.session_id, shown[1], "the id shown is the session's");
  });

  it("sends a prompt typed while the session opens once it is open", async (t) => {
    const { dir, toml } = hookDir(t);
    const { screen, mock, setup } = await start(t, [], { toml });
    await until(() => existsSync(join(dir, "hook-started")), "the hook to start");
    mock.enqueue({ blocks: [{ kind: "text", text: "answered after the open" }] });
    say(screen, "typed early");
    writeFileSync(join(dir, "release"), "");
    const shown = await screen.waitFor("answered after the open");
    assert.match(shown, /› typed early/);
    assert.equal(shown.match(/session [0-9a-f-]{36}/g)?.length, 1, "one session line");
    const prompts = ofType(loggedEvents(setup.home), "user/message");
    assert.deepEqual(
      prompts.map((event) => event.text),
      ["typed early"],
    );
  });

  it("leaves on Ctrl-D while the session opens, closing it once open", async (t) => {
    const { dir, toml } = hookDir(t);
    const { screen, setup } = await start(t, [], { toml });
    await until(() => existsSync(join(dir, "hook-started")), "the hook to start");
    screen.keys("C-d");
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.doesNotMatch(screen.screen(), /EXITED/, "waits for the session to open");
    writeFileSync(join(dir, "release"), "");
    const end = await screen.waitFor(/TTY .*END/);
    assert.match(end, /EXITED 0/);
    assert.match(end, /TTY icanon echo END/);
    // Closed before its first prompt: no log is left, nor a lock (docs/session-format.md).
    assert.equal(logged(setup.home), 0, "no log without a prompt");
  });

  it("ends with one line and the terminal restored when the session cannot open", async (t) => {
    // The year's directory of the new log is a file: the log cannot be made (after the frame).
    const { dir } = hookDir(t);
    writeFileSync(join(dir, String(new Date().getUTCFullYear())), "");
    const { screen, setup } = await start(t, ["--session-dir", dir]);
    const end = await screen.waitFor(/TTY .*END/);
    assert.match(end, /^codewhale: .*not a directory/m, end);
    assert.doesNotMatch(end, /at .*\.(ts|cjs):\d+/, "no stack trace");
    assert.match(end, /EXITED [1-9]/);
    assert.match(end, /TTY icanon echo END/);
    assert.equal(logged(setup.home), 0);
  });
});
