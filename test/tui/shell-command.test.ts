// `!command`: what counts as one, the note source the terminal and the agent share, and the
// transcript's view of a recorded command (bounded, control characters shown, not obeyed).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { USER_SHELL_SOURCE as AGENT_SOURCE } from "../../src/agent/user-shell.ts";
import { shellCommandOf, shellNoteText, USER_SHELL_SOURCE } from "../../src/tui/shell-command.ts";
import { createTheme } from "../../src/tui/theme.ts";

describe("!command", () => {
  it("takes what follows ! as the command", () => {
    assert.equal(shellCommandOf("!  git status "), "git status");
    assert.equal(shellCommandOf("!"), "");
    assert.equal(shellCommandOf("run !this"), undefined);
  });

  it("uses the agent's note source", () => {
    assert.equal(USER_SHELL_SOURCE, AGENT_SOURCE);
  });

  it("shows the command and the head of its output, escapes and all", () => {
    const output = Array.from({ length: 30 }, (_, index) => `row ${index}`).join("\n");
    const shown = shellNoteText(`$ seq 30\n\u001b[2Jgone\n${output}`, createTheme(false));
    const lines = shown.split("\n");
    assert.equal(lines[0], "! seq 30");
    assert.equal(lines.length, 22);
    assert.equal(lines.at(-1), "  … 11 more lines");
    assert.equal(lines[1], "  \\x1b[2Jgone", "a control character is shown, not obeyed");
    assert.ok(!shown.includes("\u001b"), "no control character reaches the terminal");
  });
});
