// A `task` call in the terminal (in-process, the loopback mock scripting each conversation): two
// subagents side by side each get a card with their own tool cards nested under it while they
// run, collapsed to one line when done; Ctrl-O shows the child's calls again, and a resumed
// session shows the same cards from the children's logs; a child's call denied by a rule shows
// denied in its card, and its question names the child.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { routedReplies } from "../support/routed-replies.ts";
import { answer, say, startVirtual, toolCall, waitUntil } from "../support/virtual-chat.ts";

const task = (id: string, description: string, prompt: string) => ({
  kind: "tool" as const,
  id,
  name: "task",
  input: { description, prompt },
});

/** Each child runs one bash call that waits until the test lets it go (`touch go`). */
const child = (word: string) => [
  toolCall("toolu_c1", "bash", {
    command: `echo ${word}-start; while [ ! -f go ]; do sleep 0.05; done; echo ${word}-end`,
  }),
  answer(`${word} finished`),
];

const routes = {
  "split the work": [
    {
      blocks: [
        task("toolu_t1", "alpha job", "job alpha"),
        task("toolu_t2", "beta job", "job beta"),
      ],
    },
    answer("both jobs done"),
  ],
  "job alpha": child("alpha"),
  "job beta": child("beta"),
};

describe("a subagent's card in the terminal", () => {
  it("two children each get a card with their live tool cards, collapsed when done; Ctrl-O and a resume show them", {
    timeout: 90_000,
  }, async (t) => {
    const { screen, mock, setup, exited } = await startVirtual(t, ["--permission-mode", "bypass"], {
      rows: 40,
    });
    mock.respondWith(routedReplies(routes));
    say(screen, "split the work");
    // Both children are running their bash calls, each card under its own task card.
    const live = await waitUntil(
      screen,
      (text) => /│ alpha-start/.test(text) && /│ beta-start/.test(text),
      40_000,
    );
    for (const [job, word] of [
      ["alpha job", "alpha"],
      ["beta job", "beta"],
    ]) {
      const card = new RegExp(
        `task: ${job}\\n\\s+⎿ subagent · 1 tool call.*running a call\\n {4}● bash echo ${word}-start.*\\n {6}│ ${word}-start`,
      );
      assert.match(live, card, `the ${job} card nests its child's running call`);
    }
    writeFileSync(join(setup.workspace, "go"), "");
    const done = await screen.waitFor("both jobs done", 40_000);
    assert.match(
      done,
      /task: alpha job\n\s+⎿ subagent · 1 tool call · .*done · Ctrl-O shows its calls/,
    );
    assert.match(
      done,
      /task: beta job\n\s+⎿ subagent · 1 tool call · .*done · Ctrl-O shows its calls/,
    );
    assert.doesNotMatch(done, /● bash echo/, "done, the child's cards are folded away");
    // Ctrl-O expands the newest card: the beta child's call, its result, and its session.
    screen.keys("C-o");
    const open = await screen.waitFor(/beta-end/);
    assert.match(open, /⎿ subagent · 1 tool call · .*done · session \S+/);
    assert.match(open, / {4}● bash echo beta-start/);
    assert.doesNotMatch(open, /● bash echo alpha-start/, "the other card stays folded");
    screen.keys("C-o");
    await waitUntil(screen, (text) => !text.includes("beta-end"));
    // Resumed, the cards are drawn again from the parent's log and each child's.
    const id = /session (\S+) · anthropic/.exec(done)?.[1] ?? "";
    screen.keys("C-c", "C-c");
    assert.equal(await exited, 0);
    const again = await startVirtual(t, ["--resume", id], { setup, mock, rows: 40 });
    const replayed = await again.screen.waitFor("both jobs done");
    assert.match(replayed, /task: alpha job\n\s+⎿ subagent · 1 tool call · .*done/);
    again.screen.keys("C-o");
    const reopened = await again.screen.waitFor(/ {4}● bash echo beta-start/);
    assert.match(reopened, /beta-end/);
  });

  it("a child's call denied by the user's rule shows denied in its card; the child's question names it and is answered", {
    timeout: 90_000,
  }, async (t) => {
    const { screen, mock } = await startVirtual(t, [], {
      rows: 40,
      toml: '[permissions]\ndeny = ["bash(rm:*)"]',
    });
    mock.enqueue(
      toolCall("toolu_task", "task", { description: "clean up", prompt: "remove the build" }),
      toolCall("toolu_rm", "bash", { command: "rm -rf build" }),
      toolCall("toolu_q", "ask_user", { question: "Keep the cache?", options: ["Keep", "Drop"] }),
      answer("could not remove; cache kept"),
      answer("the helper reported back"),
    );
    say(screen, "tidy the tree");
    const asked = await screen.waitFor("Keep the cache?", 40_000);
    assert.match(asked, /\? Keep the cache\? \(subagent: clean up\)/);
    assert.match(asked, / {4}● bash rm -rf build\n {6}✗ denied \(rule/);
    screen.type("1");
    const done = await screen.waitFor("the helper reported back", 40_000);
    assert.match(done, /task: clean up\n\s+⎿ subagent · 2 tool calls · .*done/);
    assert.match(JSON.stringify(mock.requests[3]?.body), /The user answered: Keep/);
  });
});
