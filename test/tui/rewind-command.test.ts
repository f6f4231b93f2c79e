// /diff, /undo and /redo in the interactive terminal (in-process, a loopback mock provider): an
// edit's diff against before the prompt, the file put back and the next request's history
// ending before the undone prompt (checked at the mock), and /redo bringing both back.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { say, startVirtual, waitUntil } from "../support/virtual-chat.ts";

const text = (value: string) => ({ blocks: [{ kind: "text" as const, text: value }] });

describe("rewind in the terminal", () => {
  it("/diff shows the edit, /undo puts the file and the conversation back, /redo re-applies", async (t) => {
    const { screen, mock, setup } = await startVirtual(t, ["--permission-mode", "accept-edits"]);
    writeFileSync(join(setup.workspace, "notes.txt"), "keep\nold line\n");
    const input = { path: "notes.txt", old_string: "old line", new_string: "new line" };
    mock.enqueue(
      text("first answer"),
      { blocks: [{ kind: "tool", id: "toolu_1", name: "edit", input }] },
      text("edited"),
      text("after the undo"),
    );
    say(screen, "hello");
    await screen.waitFor("first answer");
    say(screen, "fix the note");
    await screen.waitFor("edited");
    say(screen, "/diff");
    const diffed = await screen.waitFor(/^\+new line$/m);
    assert.match(diffed, /^-old line$/m);
    say(screen, "/undo");
    await screen.waitFor("rewound (both) to before prompt 2");
    assert.equal(readFileSync(join(setup.workspace, "notes.txt"), "utf8"), "keep\nold line\n");
    say(screen, "what now?");
    await screen.waitFor("after the undo");
    const sent = JSON.stringify(mock.requests[3]?.body);
    assert.match(sent, /hello/);
    assert.doesNotMatch(sent, /fix the note/, "the undone prompt is not in the next request");
    say(screen, "/redo");
    const file = join(setup.workspace, "notes.txt");
    await waitUntil(screen, () => readFileSync(file, "utf8") === "keep\nnew line\n");
  });
});
