// Which command lines mean the interactive `chat`: nothing, options alone, or a prompt; a
// word that could be a mistyped command stays a command (an error, not a prompt).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Command } from "commander";
import { withDefaultCommand } from "../../src/cli/default-command.ts";

describe("the default command", () => {
  const program = new Command("codewhale");
  for (const name of ["chat", "exec", "sessions"]) program.command(name);
  const cases: Array<[string[], string[]]> = [
    [[], ["chat"]],
    [
      ["--resume", "01ab"],
      ["chat", "--resume", "01ab"],
    ],
    [["fix the failing test"], ["chat", "fix the failing test"]],
    [["Refactor"], ["chat", "Refactor"]],
    [
      ["exec", "hi"],
      ["exec", "hi"],
    ],
    [["--version"], ["--version"]],
    [["--help"], ["--help"]],
    [["sesions"], ["sesions"]],
  ];
  for (const [argv, expected] of cases) {
    it(`codewhale ${argv.join(" ") || "(nothing)"} → ${expected.join(" ")}`, () => {
      assert.deepEqual(withDefaultCommand(program, argv), expected);
    });
  }
});
