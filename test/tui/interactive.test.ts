// The interactive terminal end to end: the built CLI in a real terminal (tmux), against the
// loopback mock provider. Each test types, waits for the screen to show what it expects
// (polling, never sleeping), and checks the session log where it matters.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, it } from "node:test";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { execEnv, MODEL_OF } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { childOf, startTmux, type TmuxScreen, tmuxAvailable } from "../support/tmux.ts";

const mock = useMockProvider();
const MODEL = MODEL_OF.anthropic;
let open: TmuxScreen[] = [];

function start(args: string[] = [], extraToml = "", size = { columns: 100, rows: 30 }) {
  const setup = execEnv(mock, extraToml);
  const screen = startTmux(["--model", MODEL, ...args], {
    env: setup.env,
    cwd: setup.workspace,
    ...size,
  });
  open.push(screen);
  return { screen, setup };
}

afterEach(() => {
  for (const screen of open) screen.kill();
  open = [];
});

/** The events of the only session log under `home`. */
function loggedEvents(home: string): SessionEvent[] {
  const dir = join(home, "sessions");
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) =>
    f.endsWith(".jsonl"),
  );
  assert.equal(files.length, 1, `one session log: ${files.join(", ")}`);
  return readSession(join(dir, files[0]!)).events;
}

function calls(events: SessionEvent[]): Array<EventOf<"tool/call">> {
  return events.filter((e): e is EventOf<"tool/call"> => e.type === "tool/call");
}

describe("codewhale in a terminal", { skip: !tmuxAvailable() && "tmux is not installed" }, () => {
  it("streams an answer as Markdown and exits on Ctrl-D with the terminal restored", async () => {
    mock.enqueue({
      blocks: [
        {
          kind: "text",
          text: "# Plan\n\n- first step\n- second step\n\n```js\nconst x = 1;\n```\n",
        },
      ],
    });
    const { screen } = start();
    await screen.waitFor("/help");
    screen.type("make a plan");
    screen.keys("Enter");
    await screen.waitFor("second step");
    const shown = screen.screen();
    assert.match(shown, /› make a plan/);
    assert.match(shown, /Plan/);
    assert.doesNotMatch(shown, /^# Plan/m, "the heading is rendered, not shown as source");
    assert.match(shown, /const x = 1;/);
    screen.keys("C-d");
    const end = await screen.waitFor(/TTY .*END/);
    assert.match(end, /EXITED 0/);
    assert.match(end, /TTY icanon echo END/, "the tty is back in cooked mode with echo");
    assert.equal(screen.format("#{cursor_flag}"), "1", "the cursor is visible");
  });

  it("shows an edit as a card with a coloured diff", async () => {
    mock.enqueue({
      blocks: [
        {
          kind: "tool",
          id: "toolu_1",
          name: "edit",
          input: { path: "notes.txt", old_string: "old line", new_string: "new line" },
        },
      ],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "edited" }] });
    const { screen, setup } = start(["--permission-mode", "accept-edits"]);
    writeFileSync(join(setup.workspace, "notes.txt"), "keep\nold line\n");
    await screen.waitFor("/help");
    screen.type("fix the note");
    screen.keys("Enter");
    const shown = await screen.waitFor("edited");
    assert.match(shown, /● edit notes\.txt/);
    assert.match(shown, /^\s+-old line$/m);
    assert.match(shown, /^\s+\+new line$/m);
    assert.equal(readFileSync(join(setup.workspace, "notes.txt"), "utf8"), "keep\nnew line\n");
  });

  it("asks before bash: allowed once it runs and shows its exit code", async () => {
    mock.enqueue({
      blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command: "echo from-bash" } }],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "all done" }] });
    const { screen, setup } = start();
    await screen.waitFor("/help");
    screen.type("run it");
    screen.keys("Enter");
    await screen.waitFor("Allow once");
    assert.match(screen.screen(), /Allow bash echo from-bash\?/);
    screen.keys("1");
    const shown = await screen.waitFor("all done");
    assert.match(shown, /exit code 0/);
    assert.doesNotMatch(shown, /Allow once/, "the prompt is gone once answered");
    const [call] = calls(loggedEvents(setup.home));
    assert.equal(call?.decision.outcome, "allow");
    assert.equal(call?.decision.by, "user");
  });

  it("asks before bash: denied with a reason, the model reads the reason", async () => {
    mock.enqueue({
      blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command: "rm -rf build" } }],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "understood" }] });
    const { screen, setup } = start();
    await screen.waitFor("/help");
    screen.type("clean up");
    screen.keys("Enter");
    await screen.waitFor("Deny, and tell the model why");
    screen.keys("4");
    await screen.waitFor("Why deny?");
    screen.type("keep the build folder");
    screen.keys("Enter");
    const shown = await screen.waitFor("understood");
    assert.match(shown, /denied/);
    const [call] = calls(loggedEvents(setup.home));
    assert.equal(call?.decision.outcome, "deny");
    assert.match(call?.decision.reason ?? "", /keep the build folder/);
    const last = JSON.stringify(mock.requests.at(-1)?.body);
    assert.match(last, /keep the build folder/, "the reason reaches the model");
  });

  it("Esc cancels a running turn and the session goes on", async () => {
    mock.enqueue({
      blocks: [{ kind: "text", text: "a slow answer that streams for a long time" }],
      delayMs: 400,
      chunkSize: 2,
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "second answer" }] });
    const { screen, setup } = start();
    await screen.waitFor("/help");
    screen.type("go slowly");
    screen.keys("Enter");
    await screen.waitFor("Esc to cancel");
    screen.keys("Escape");
    await screen.waitFor("cancelled");
    screen.type("again");
    screen.keys("Enter");
    await screen.waitFor("second answer");
    const ends = loggedEvents(setup.home).filter(
      (e): e is EventOf<"turn/end"> => e.type === "turn/end",
    );
    assert.deepEqual(
      ends.map((e) => e.reason),
      ["cancelled", "completed"],
    );
  });

  it("resizes to 80 columns and re-wraps", async () => {
    const long = Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ");
    mock.enqueue({ blocks: [{ kind: "text", text: long }] });
    const { screen } = start([], "", { columns: 120, rows: 30 });
    await screen.waitFor("/help");
    screen.type("say many words");
    screen.keys("Enter");
    await screen.waitFor("word29");
    screen.resize(80, 30);
    const narrow = await screen.waitFor(/^.{0,80}word29/m);
    for (const line of narrow.split("\n")) assert.ok(line.length <= 80, `fits 80 columns: ${line}`);
    assert.match(narrow, /word0/);
  });

  it("restores the terminal when killed with SIGTERM", async () => {
    mock.enqueue({ blocks: [{ kind: "text", text: "slow" }], delayMs: 2000 });
    const { screen } = start();
    await screen.waitFor("/help");
    screen.type("wait");
    screen.keys("Enter");
    await screen.waitFor("Esc to cancel");
    const shell = screen.panePid();
    const child = childOf(shell);
    process.kill(child, "SIGTERM");
    const end = await screen.waitFor(/TTY .*END/);
    assert.match(end, /EXITED 130/);
    assert.match(end, /TTY icanon echo END/);
    assert.equal(screen.format("#{cursor_flag}"), "1", "the cursor is visible");
  });
});
