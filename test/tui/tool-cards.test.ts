// Tool cards end to end in the in-process terminal against the loopback mock provider: a running
// bash call's output tail shows live, never a secret a hostile repository makes it print, and
// Ctrl-O expands the newest card to everything the model was given and sent; Alt-Up moves the
// focus to an earlier card, which Ctrl-O then expands instead.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fakeProviderTokens } from "../runner/support/fake-secrets.ts";
import { answer, say, startVirtual, toolCall, waitUntil } from "../support/virtual-chat.ts";

describe("tool cards in a terminal", { concurrency: 3 }, () => {
  it("shows a running bash call's output tail live, its secrets redacted", async (t) => {
    const { screen, mock, setup } = await startVirtual(t, ["--permission-mode", "bypass"]);
    const [, secret] = fakeProviderTokens()[1] as [string, string];
    writeFileSync(join(setup.workspace, ".env"), `GITHUB_TOKEN=${secret}\n`);
    const command = "cat .env; echo step-one; sleep 2; echo step-two";
    mock.enqueue(toolCall("toolu_1", "bash", { command }), answer("all done"));
    say(screen, "show the env");
    const live = await screen.waitFor(/│ step-one/);
    assert.doesNotMatch(live, /│ step-two|exit code/, "shown while the command still runs");
    assert.match(live, /│ GITHUB_TOKEN=\[REDACTED:github_token\]/);
    // Every frame until the end: the raw token never reaches the screen.
    for (;;) {
      const now = screen.screen();
      assert.ok(!now.includes(secret) && !now.includes(secret.slice(4, 20)), now);
      if (now.includes("all done")) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const done = screen.screen();
    assert.match(done, /exit code 0/);
    assert.match(done, /1 secret redacted \(github_token\)/);
    assert.doesNotMatch(done, /│ step-one/, "the tail gives way to the result");
  });

  it("Ctrl-O expands the newest card to its arguments and whole result, and collapses it", async (t) => {
    const { screen, mock } = await startVirtual(t, ["--permission-mode", "bypass"]);
    const command = "seq 1 12 | sed 's/^/row /'";
    mock.enqueue(toolCall("toolu_1", "bash", { command }), answer("listed"));
    say(screen, "list rows");
    const compact = await screen.waitFor("listed");
    assert.doesNotMatch(compact, /row 7/, "the compact card shows a summary only");
    screen.keys("C-o");
    const open = await screen.waitFor("result as the model received it");
    assert.match(open, /command: seq 1 12 \| sed 's\/\^\/row \/'/);
    for (const n of [1, 7, 12]) assert.match(open, new RegExp(`^\\s+row ${n}$`, "m"));
    assert.match(open, /\[exit code 0\]/);
    assert.match(open, /bytes from the tool, \d+ to the model/);
    screen.keys("C-o");
    const closed = await waitUntil(screen, (text) => !text.includes("result as the model"));
    assert.doesNotMatch(closed, /^\s+row 7$/m);
  });

  it("Alt-Up focuses an earlier card and Ctrl-O expands that one; /help names the keys", async (t) => {
    const { screen, mock } = await startVirtual(t, ["--permission-mode", "bypass"], { rows: 60 });
    mock.enqueue(
      toolCall("toolu_1", "bash", { command: "seq 1 9 | sed 's/^/first /'" }),
      toolCall("toolu_2", "bash", { command: "seq 1 9 | sed 's/^/second /'" }),
      answer("both listed"),
    );
    say(screen, "list twice");
    await screen.waitFor("both listed");
    screen.keys("M-Up");
    const newest = await screen.waitFor("card 2 of 2");
    assert.match(newest, /▶ ● bash seq 1 9 \| sed 's\/\^\/second/);
    screen.keys("M-Up");
    const earlier = await screen.waitFor("card 1 of 2");
    assert.match(earlier, /▶ ● bash seq 1 9 \| sed 's\/\^\/first/);
    assert.doesNotMatch(earlier, /▶ ● bash seq 1 9 \| sed 's\/\^\/second/, "one card focused");
    screen.keys("C-o");
    const open = await screen.waitFor("result as the model received it");
    assert.match(open, /^\s+first 7$/m, "the earlier card is expanded");
    assert.doesNotMatch(open, /^\s+second 7$/m, "the newest stays compact");
    screen.keys("M-Down", "M-Down");
    await waitUntil(screen, (text) => !text.includes("card 2 of 2") && !text.includes("▶"));
    say(screen, "/help");
    await screen.waitFor("Alt-Up/Alt-Down: focus an earlier/later tool card");
  });
});
