// A long `write` in the in-process terminal against the loopback mock, streamed slowly: while
// the model is still writing it, a pending card shows the file's last lines as they arrive;
// once the call is complete, its real card takes that place.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { slow } from "../support/mock-provider/index.ts";
import { answer, say, startVirtual, toolCall, waitUntil } from "../support/virtual-chat.ts";

describe("a tool call streaming in a terminal", () => {
  it("shows a long write while the model writes it, then its card in its place", async (t) => {
    const { screen, mock, setup } = await startVirtual(t, ["--permission-mode", "bypass"], {
      rows: 40,
    });
    const content = `${Array.from({ length: 12 }, (_, n) => `row ${n + 1} of the notes`).join("\n")}\n`;
    mock.enqueue(slow(toolCall("toolu_w", "write", { path: "notes.md", content }), 400));
    mock.enqueue(answer("notes written"));
    say(screen, "write the notes");
    const live = await screen.waitFor(/○ write writing…[\s\S]*│ row \d+ of the notes/);
    assert.doesNotMatch(live, /● write|notes written/, "shown before the call is complete");
    const done = await screen.waitFor("notes written");
    assert.match(done, /● write notes\.md/);
    const gone = await waitUntil(screen, (text) => !text.includes("writing…"));
    assert.doesNotMatch(gone, /○ write/, "the real card took its place");
    assert.equal(readFileSync(join(setup.workspace, "notes.md"), "utf8"), content);
  });

  it("drops the pending card when the call asks: the prompt shows the whole call", async (t) => {
    const { screen, mock } = await startVirtual(t, [], { rows: 40 });
    const command = Array.from({ length: 8 }, (_, n) => `echo line-${n + 1}`).join("\n");
    mock.enqueue(slow(toolCall("toolu_b", "bash", { command }), 200));
    mock.enqueue(answer("ran the lines"));
    say(screen, "run the lines");
    await screen.waitFor(/○ bash writing…/);
    const asking = await screen.waitFor("Allow once");
    assert.doesNotMatch(asking, /○ bash/, "no streamed tail beside the ask panel");
    screen.keys("1");
    await screen.waitFor("ran the lines");
  });
});
