// The launch frame under tmux: the bin draws the first frame a start stored before the CLI
// bundle loads (held here by a preload at the moment the bin reads dist/cli.cjs), with a fresh
// session id that the session then has; keys typed in that gap are not echoed over it and reach
// the editor; the TUI's own first render does not change the screen. A changed config is a miss
// (nothing drawn early); a terminal resized in the gap gets one frame, drawn anew; a start that
// fails erases the frame before its one error line; a signal in the gap ends the start as it
// ends a session; the terminal is restored either way.
import assert from "node:assert/strict";
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it, type TestContext } from "node:test";
import { execEnv } from "../support/exec-harness.ts";
import { startMockProvider } from "../support/mock-provider/index.ts";
import { childOf, startTmux, type TmuxScreen, tmuxAvailable } from "../support/tmux.ts";
import { MODEL, ofType, openedEvents, waitUntil } from "../support/tui-session.ts";

const SESSION_LINE = /session ([0-9a-f-]{36}) · /;
const gateModule = new URL("../support/launch-gate.cjs", import.meta.url).pathname;

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A home and workspace whose every start is held (the gate) until `open()`. */
async function gated(t: TestContext) {
  const mock = await startMockProvider();
  const setup = execEnv(mock);
  const dir = mkdtempSync(join(tmpdir(), "cw-launch-gate-"));
  const gate = join(dir, "gate");
  t.after(async () => {
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const env = { ...setup.env, NODE_OPTIONS: `--require ${gateModule}`, CW_LAUNCH_GATE: gate };
  const frames = () =>
    existsSync(join(setup.home, "cache"))
      ? readdirSync(join(setup.home, "cache")).filter((name) => name.startsWith("launch-frame-"))
      : [];
  let screens: TmuxScreen[] = [];
  t.after(() => {
    for (const screen of screens) screen.kill();
  });
  const run = (extra: Record<string, string> = {}) => {
    rmSync(`${gate}.held`, { force: true });
    const screen = startTmux(["--model", MODEL], {
      env: { ...env, ...extra },
      cwd: setup.workspace,
    });
    screens = [...screens, screen];
    return screen;
  };
  const held = () => until(() => existsSync(`${gate}.held`), "the bin to reach cli.cjs");
  return {
    setup,
    frames,
    run,
    held,
    open: () => writeFile(`${gate}.open`, ""),
    close: () => rmSync(`${gate}.open`, { force: true }),
    /** A first start that stores the frame (its session open), then leaves. */
    async first(): Promise<string> {
      await writeFile(`${gate}.open`, "");
      const screen = run();
      const shown = SESSION_LINE.exec(await screen.waitFor(SESSION_LINE))?.[1] as string;
      await openedEvents(setup.home);
      await until(() => frames().length === 1, "the frame file");
      screen.keys("C-d");
      await screen.waitFor(/EXITED 0/);
      screen.kill();
      rmSync(join(setup.home, "sessions"), { recursive: true, force: true });
      rmSync(`${gate}.open`, { force: true });
      return shown;
    },
  };
}

describe("the launch frame", {
  skip: !tmuxAvailable() && "tmux is not installed",
  concurrency: 3,
}, () => {
  it("shows the stored frame before the CLI loads, keys typed meanwhile reach the editor", async (t) => {
    const g = await gated(t);
    const firstId = await g.first();
    const [file] = g.frames();
    const stored = await readFile(join(g.setup.home, "cache", file as string), "utf8");
    assert.equal(statSync(join(g.setup.home, "cache", file as string)).mode & 0o777, 0o600);
    assert.ok(stored.includes("{{codewhale-session}}"), "the id is a mark in the file");
    assert.ok(!stored.includes(firstId), "no session id is stored");

    const screen = g.run();
    await g.held();
    const frame = await screen.waitFor(`${MODEL} · mode default · /help`);
    assert.ok(!existsSync(join(g.setup.home, "sessions")), "no session yet: the CLI is held");
    const shownId = SESSION_LINE.exec(frame)?.[1];
    assert.ok(shownId && shownId !== firstId, `a fresh session id:\n${frame}`);
    screen.type("abc");
    await sleep(150);
    assert.equal(screen.screen(), frame, "keys typed in the gap are not echoed over the frame");
    await g.open();
    const typed = await screen.waitFor(/^ abc$/m);
    const without = (text: string) => text.split("\n").filter((line) => line.trim() !== "abc");
    assert.deepEqual(without(typed).slice(0, 3), frame.split("\n").slice(0, 3), "the same frame");
    const [begun] = ofType(await openedEvents(g.setup.home), "session/start");
    assert.equal(begun?.session_id, shownId, "the session has the id the launch frame showed");
    screen.keys("BSpace", "BSpace", "BSpace");
    await screen.waitFor(/^$/m);
    screen.keys("C-d");
    const end = await screen.waitFor(/TTY .*END/);
    assert.match(end, /EXITED 0/);
    assert.match(end, /TTY icanon echo END/);
  });

  it("is not drawn once the config changed", async (t) => {
    const g = await gated(t);
    await g.first();
    appendFileSync(join(g.setup.home, "config.toml"), "# changed\n");
    const screen = g.run();
    await g.held();
    await sleep(300);
    assert.doesNotMatch(screen.screen(), /\/help/, "no frame while the CLI is held");
    await g.open();
    await screen.waitFor("/help");
  });

  it("is erased before the one error line when the start fails, the terminal restored", async (t) => {
    const g = await gated(t);
    await g.first();
    // Still set (the frame's key is the same), but a key an HTTP header cannot carry.
    const screen = g.run({ ANTHROPIC_API_KEY: "not a key" });
    await g.held();
    await screen.waitFor("/help");
    await g.open();
    const end = await screen.waitFor(/TTY .*END/);
    assert.match(end, /^codewhale: the API key in ANTHROPIC_API_KEY .*holds a space/);
    assert.doesNotMatch(end, /\/help|session [0-9a-f]/, `the frame is gone:\n${end}`);
    assert.match(end, /EXITED 2/);
    assert.match(end, /TTY icanon echo END/);
  });

  it("is drawn anew, once, when the terminal was resized in the gap", async (t) => {
    const g = await gated(t);
    await g.first();
    const screen = g.run();
    await g.held();
    await screen.waitFor("/help");
    screen.resize(90, 30);
    await g.open();
    await openedEvents(g.setup.home);
    // As on any resize, the screen is drawn again whole: one frame, at the new width.
    const shown = await waitUntil(screen, (text) => /\/help/.test(text) && /^─{90}$/m.test(text));
    assert.equal(shown.match(/\/help/g)?.length, 1, `one frame:\n${shown}`);
    assert.equal(shown.match(/session [0-9a-f-]{36}/g)?.length, 1);
    assert.doesNotMatch(
      shown,
      /^─{1,89}$/m,
      `nothing left of the frame drawn at 100 columns:\n${shown}`,
    );
  });

  it("stops on a signal in the gap as a session does: one line, the terminal restored", async (t) => {
    const g = await gated(t);
    await g.first();
    const screen = g.run();
    await g.held();
    await screen.waitFor("/help");
    process.kill(childOf(screen.panePid()), "SIGTERM");
    await g.open();
    const end = await screen.waitFor(/TTY .*END/);
    assert.match(end, /^codewhale: stopped by a signal$/m);
    assert.match(end, /EXITED 130/);
    assert.match(end, /TTY icanon echo END/);
  });
});
