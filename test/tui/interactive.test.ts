// The interactive terminal end to end: the built CLI in a real terminal (tmux), against the
// loopback mock provider. Each test types, waits for the screen to show what it expects
// (polling, never sleeping), and checks the session log where it matters.
import assert from "node:assert/strict";
import { after, afterEach, describe, it } from "node:test";
import { execEnv, MODEL_OF } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { startTmux, type TmuxScreen, tmuxAvailable } from "../support/tmux.ts";

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
after(() => undefined);

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
});
