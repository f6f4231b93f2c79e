// `$CODEWHALE_HOME/keybindings.json` (docs/terminal.md#keybindings), in-process: a file that
// remaps submit and newLine changes what Enter does, and the remapped key sends the prompt;
// /help names the keys the file binds; a bad file is one notice naming the file and the
// field, and the defaults hold.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startMockProvider } from "../support/mock-provider/index.ts";
import { execEnv } from "../support/provider-env.ts";
import { loggedEvents, ofType, startVirtual } from "../support/virtual-chat.ts";

const text = (value: string) => ({ blocks: [{ kind: "text" as const, text: value }] });

async function startWith(t: Parameters<typeof startVirtual>[0], bindings: string, rows = 30) {
  const mock = await startMockProvider();
  t.after(() => mock.close());
  const setup = execEnv(mock);
  writeFileSync(join(setup.home, "keybindings.json"), bindings);
  return startVirtual(t, [], { mock, setup, rows });
}

describe("keybindings.json", () => {
  it("remaps submit to Ctrl-S and Enter to a new line: the prompt goes with both lines", async (t) => {
    const bindings = JSON.stringify({ submit: "ctrl+s", newLine: ["enter", "shift+enter"] });
    const { screen, mock, setup } = await startWith(t, bindings);
    mock.enqueue(text("Two lines received."));
    screen.type("first line");
    screen.keys("Enter");
    screen.type("second line");
    await screen.waitFor("second line");
    assert.equal(mock.requests.length, 0, "Enter did not send the prompt");
    screen.keys("C-s");
    await screen.waitFor("Two lines received.");
    const [sent] = ofType(loggedEvents(setup.home), "user/message");
    assert.equal(sent?.text, "first line\nsecond line");
  });

  it("/help names the keys the file binds, not the defaults", async (t) => {
    const bindings = { historySearch: "ctrl+f", cycleMode: ["ctrl+t", "shift+tab"], exit: [] };
    // Tall enough for all of /help: its key lines come first.
    const { screen } = await startWith(t, JSON.stringify(bindings), 120);
    screen.type("/help");
    screen.keys("Enter");
    await screen.waitFor("Ctrl-F: search it");
    await screen.waitFor("Ctrl-T or Shift+Tab: next permission mode");
    await screen.waitFor("(unbound): exit");
    assert.doesNotMatch(screen.screen(), /Ctrl-R: search it/);
  });

  it("remaps a list's keys: Ctrl-N moves down the /theme picker", async (t) => {
    const { screen } = await startWith(t, JSON.stringify({ selectDown: "ctrl+n" }));
    screen.type("/theme");
    screen.keys("Enter");
    await screen.waitFor("terminal theme");
    screen.keys("C-n");
    screen.keys("Enter");
    await screen.waitFor("theme: dark");
  });

  it("a bad file is one notice naming the file and the field; the defaults hold", async (t) => {
    const { screen, mock, setup } = await startWith(t, '{ "submit": "ctrl+s", "sumbit": 5 }');
    const file = join(setup.home, "keybindings.json");
    await screen.waitFor('"sumbit": not an action');
    assert.match(screen.screen(), /keybindings\.json: "sumbit": not an action/);
    assert.ok(screen.raw().includes(file.slice(-30)), "the file is named");
    mock.enqueue(text("Sent by Ctrl-S."));
    screen.type("hello");
    screen.keys("C-s");
    await screen.waitFor("Sent by Ctrl-S.");
  });

  it("a file that is not JSON keeps every default: Enter sends", async (t) => {
    const { screen, mock } = await startWith(t, '{ "submit": ');
    await screen.waitFor("not valid JSON");
    mock.enqueue(text("Sent by Enter."));
    screen.type("hello");
    screen.keys("Enter");
    await screen.waitFor("Sent by Enter.");
  });
});
