// `/memory` in a real terminal (tmux): the picker lists the instruction files (the project's
// AGENTS.md, a CLAUDE.md, a rule file, the user's AGENTS.md to be created); the one picked
// opens in $EDITOR with the terminal handed over (the editor reads a line from it), and the
// screen comes back drawn and typing works.
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startMockProvider } from "../support/mock-provider/index.ts";
import { execEnv } from "../support/provider-env.ts";
import { tempDir } from "../support/session-fixtures.ts";
import { skipWithout } from "../support/system-tools.ts";
import { startChat } from "../support/tui-session.ts";

describe("/memory in a terminal", { skip: skipWithout("tmux") }, () => {
  it("lists the instruction files and edits the one picked in $EDITOR, then draws again", async (t) => {
    const mock = await startMockProvider();
    t.after(() => mock.close());
    const setup = execEnv(mock);
    writeFileSync(join(setup.workspace, "AGENTS.md"), "Project rules.\n");
    writeFileSync(join(setup.workspace, "CLAUDE.md"), "Claude rules.\n");
    mkdirSync(join(setup.workspace, ".claude", "rules"), { recursive: true });
    writeFileSync(join(setup.workspace, ".claude", "rules", "ts.md"), "---\npaths: src/**\n---\nx");
    const editor = join(tempDir("cw-editor-"), "editor.sh");
    writeFileSync(
      editor,
      '#!/bin/sh\nprintf "EDITOR OPEN %s\\n" "$(basename "$1")"\nread answer\nprintf "Remember %s.\\n" "$answer" >> "$1"\n',
    );
    chmodSync(editor, 0o755);
    setup.env.EDITOR = editor;
    const { screen } = await startChat(t, [], { setup, mock });
    screen.type("/memory");
    screen.keys("Enter");
    const picker = await screen.waitFor("open an instruction file in your editor");
    assert.match(picker, /AGENTS\.md +project instructions/);
    assert.match(picker, /CLAUDE\.md +project instructions/);
    assert.match(picker, /\.claude\/rules\/ts\.md +project rule for src\/\*\*/);
    assert.match(
      picker,
      /(~\/|\$CODEWHALE_HOME\/)\S*AGENTS\.md +your instructions, every project \(new\)/,
    );
    screen.type("CLAUDE");
    screen.keys("Enter");
    await screen.waitFor("EDITOR OPEN CLAUDE.md");
    screen.type("the milk");
    screen.keys("Enter");
    await screen.waitFor("CLAUDE.md edited: it applies from the next session (/new)");
    assert.equal(
      readFileSync(join(setup.workspace, "CLAUDE.md"), "utf8"),
      "Claude rules.\nRemember the milk.\n",
    );
    screen.type("still typing");
    await screen.waitFor("still typing");
  });
});
