// A rewind in a real terminal (the built CLI in tmux) that would overwrite a file changed
// outside codewhale: the terminal shows the file's diff against what the rewind would write
// (escaped: a control sequence in the file does not reach the terminal) and asks; `n` changes
// nothing, `y` rewinds, forced, and the log records the file it overwrote.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { skipWithout } from "../support/system-tools.ts";
import { loggedEvents, ofType, say, start } from "../support/tui-session.ts";

const text = (value: string) => ({ blocks: [{ kind: "text" as const, text: value }] });

describe("a rewind over a file changed outside codewhale, in a terminal", {
  skip: skipWithout("tmux"),
}, () => {
  it("shows the diff and asks: n keeps the file, y overwrites it and the log says so", async (t) => {
    const { screen, mock, setup } = await start(t, ["--permission-mode", "accept-edits"]);
    const file = join(setup.workspace, "notes.txt");
    writeFileSync(file, "keep\nold line\n");
    const input = { path: "notes.txt", old_string: "old line", new_string: "new line" };
    mock.enqueue(
      { blocks: [{ kind: "tool", id: "toolu_1", name: "edit", input }] },
      text("edited"),
    );
    say(screen, "fix the note");
    await screen.waitFor("edited");
    const mine = "keep\nmy own line \x1b[2J\n";
    writeFileSync(file, mine);

    say(screen, "/undo");
    const asked = await screen.waitFor("overwrite it?");
    assert.match(asked, /changed outside codewhale since the checkpoint/);
    assert.match(asked, /^-my own line/m, "the line the rewind would drop");
    assert.match(asked, /^\+old line$/m, "the line it would write back");
    assert.match(
      asked,
      /fix the note/,
      "the control sequence in the file did not clear the screen",
    );
    screen.keys("n");
    await screen.waitFor("rewind cancelled: nothing changed");
    assert.equal(readFileSync(file, "utf8"), mine);
    assert.equal(ofType(loggedEvents(setup.home), "checkpoint/rewind").length, 0);

    say(screen, "/undo");
    await screen.waitFor("overwrite it?");
    screen.keys("y");
    await screen.waitFor("overwrote notes.txt");
    assert.equal(readFileSync(file, "utf8"), "keep\nold line\n");
    const [rewind] = ofType(loggedEvents(setup.home), "checkpoint/rewind");
    assert.deepEqual(rewind?.forced, ["notes.txt"]);
    assert.equal(rewind?.by, "terminal");
  });
});
