// A command of your own with Claude Code's !`command` (in-process terminal, loopback mock): the
// terminal asks before running it; allowed, it runs as a `!` command of yours (its output a note
// the model reads before the prompt); declined (Esc), nothing runs and the prompt says so.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { answer, say, startVirtual } from "../support/virtual-chat.ts";

function command(workspace: string): void {
  const dir = join(workspace, ".codewhale", "commands");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "st.md"), "Summarise the status:\n!`echo hello-from-cmd`\n");
}

describe("a command of yours that runs a shell command", () => {
  it("asks first; allowed, the output reaches the model before the prompt", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    command(setup.workspace);
    mock.enqueue(answer("Summarised."));
    say(screen, "/st");
    await screen.waitFor("/st runs `echo hello-from-cmd` first");
    screen.keys("Enter");
    await screen.waitFor("Summarised.");
    const sent = JSON.stringify(mock.requests[0]?.body);
    assert.match(sent, /\$ echo hello-from-cmd\\nhello-from-cmd/);
    assert.match(sent, /`echo hello-from-cmd` \(its output is above\)/);
  });

  it("declined with Esc: nothing runs, and the prompt says it was not run", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    command(setup.workspace);
    mock.enqueue(answer("Fine."));
    say(screen, "/st");
    await screen.waitFor("/st runs `echo hello-from-cmd` first");
    screen.keys("Escape");
    await screen.waitFor("Fine.");
    const sent = JSON.stringify(mock.requests[0]?.body);
    assert.doesNotMatch(sent, /\\nhello-from-cmd/);
    assert.match(sent, /`echo hello-from-cmd` \(not run\)/);
  });
});
