// Text from a hostile repository, model or MCP server never reaches the terminal raw in the
// interactive UI (tmux, every byte codewhale writes recorded): a file named with a screen
// clear, an OSC 52 clipboard write, an OSC 8 link, BEL, a C1 control, a bidi override and a
// zero-width space is shown escaped in the `@` completion menu and goes into the prompt
// escaped and quoted after Tab; an earlier session's title and workspace in the /resume picker; a user command's description in the slash-command menu and
// /help; the model's name in the header and status line; a bash call in the permission prompt
// and its tool card, its output, and the model's answer.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { execEnv, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { startMockProvider } from "../support/mock-provider/index.ts";
import { tmuxAvailable } from "../support/tmux.ts";
import { answer, say, start, toolCall, waitUntil } from "../support/tui-session.ts";

/** Every kind of hostile sequence, with no `/` (it names a file too). */
const HOSTILE =
  "H\u001b[2J\u001b]52;c;SGVsbG8=\u0007\u001b]8;;x.invalid\u0007L\u001b]8;;\u0007\u0007\u009b31m\u202eZ\u200bW";
const SHOWN =
  "H\\x1b[2J\\x1b]52;c;SGVsbG8=\\x07\\x1b]8;;x.invalid\\x07L\\x1b]8;;\\x07\\x07\\x9b31m\\u202eZ\\u200bW";
/** What must never be in the bytes written: each hostile sequence as it would act. */
const ACTING = [
  "H\u001b[2J",
  "\u001b]52;c;SGVsbG8=",
  "\u001b]8;;x.invalid",
  "\u009b31m",
  "\u202eZ",
  "Z\u200bW",
];

function noneActs(raw: string, where: string): void {
  for (const sequence of ACTING)
    assert.ok(
      !raw.includes(sequence),
      `${where}: ${JSON.stringify(sequence)} reached the terminal raw`,
    );
}

describe("the interactive terminal shows hostile text escaped, everywhere", {
  skip: !tmuxAvailable() && "tmux is not installed",
}, () => {
  it("completion menu and Tab, slash commands and /help, header and status line, prompt, card and answer", async (t) => {
    // An earlier session, its title and its workspace's name hostile: the /resume picker lists it.
    const mock = await startMockProvider();
    t.after(() => mock.close());
    const earlier = execEnv(mock);
    const hostileDir = join(earlier.workspace, HOSTILE);
    mkdirSync(hostileDir);
    mock.enqueue(answer("ok"));
    const run = await runExec(["--model", MODEL_OF.anthropic, `earlier ${HOSTILE}`], {
      ...earlier,
      workspace: hostileDir,
    });
    assert.equal(run.status, 0, run.stderr);
    const model = `anthropic/mock-${HOSTILE}`;
    const { screen, setup } = await start(t, ["--model", model], {
      rows: 45,
      columns: 200,
      record: true,
      setup: earlier,
      mock,
    });
    const shownModel = `anthropic/mock-${SHOWN}`;
    await screen.waitFor(shownModel);
    writeFileSync(join(setup.workspace, `${HOSTILE}.txt`), "notes\n");
    mkdirSync(join(setup.home, "commands"), { recursive: true });
    writeFileSync(
      join(setup.home, "commands", "tidy.md"),
      `---\ndescription: tidy ${HOSTILE}\n---\nTidy up.\n`,
    );

    screen.type("read @H");
    await screen.waitFor(`${SHOWN}.txt`);
    screen.keys("Tab");
    await screen.waitFor(`read @"${SHOWN}.txt"`);
    noneActs(screen.raw(), "@ completion and Tab");
    screen.keys("C-u");

    screen.type("/ti");
    await screen.waitFor(`tidy ${SHOWN}`);
    screen.keys("Escape");
    screen.keys("C-u");
    await waitUntil(screen, (text) => !text.includes(`tidy ${SHOWN}`));
    say(screen, "/help");
    await screen.waitFor(`/tidy  tidy ${SHOWN}`);
    noneActs(screen.raw(), "slash commands");

    say(screen, "/resume");
    await screen.waitFor(`earlier ${SHOWN}`);
    noneActs(screen.raw(), "the /resume picker");
    screen.keys("Escape");
    await waitUntil(screen, (text) => !text.includes(`earlier ${SHOWN}`));

    mock.enqueue(
      toolCall("toolu_1", "bash", { command: `printf '%s' '${HOSTILE}'` }),
      answer(`answer ${HOSTILE}`),
    );
    say(screen, "go");
    const prompt = await screen.waitFor("1. Allow once");
    assert.ok(prompt.includes(SHOWN), prompt);
    screen.keys("1");
    await screen.waitFor(`answer ${SHOWN}`);
    noneActs(screen.raw(), "permission prompt, tool card, answer");
    assert.ok(screen.screen().includes(shownModel), "the status line names the model, escaped");
    noneActs(screen.raw(), "the whole session");
  });
});
