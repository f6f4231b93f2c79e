// Which bundle a command line starts from: the command lines default-command.ts turns into
// `chat` start from dist/chat.cjs, the interactive session's own entry, and every other one
// (commands, the top-level help, a mistyped command) from dist/cli.cjs. Seen from outside by
// the compile cache each start writes, named after its bundle (bin/codewhale.cjs).
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { Command } from "commander";
import { withDefaultCommand } from "../../src/cli/default-command.ts";
import { runCli } from "../support/cli.ts";
import { tempDir } from "../support/session-fixtures.ts";

let home: string;

beforeEach(() => {
  home = tempDir("cw-entry-");
  mkdirSync(join(home, "cache"), { mode: 0o700 });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** The bundles whose compile cache a run of `codewhale <argv>` wrote. */
function bundlesStarted(argv: string[]): string[] {
  // The cache in the home's own cache dir, not the run's shared one (support/cli.ts).
  runCli(argv, { env: { CODEWHALE_HOME: home, CODEWHALE_COMPILE_CACHE: "" }, cwd: home });
  const names = readdirSync(join(home, "cache")).filter((name) => name.endsWith(".v8cache"));
  return names.map((name) => name.slice(0, name.indexOf("-")));
}

describe("the bundle a command line starts from", () => {
  const program = new Command("codewhale");
  for (const name of ["chat", "exec", "sessions"]) program.command(name);
  const lines = [
    [],
    ["--resume", "01ab"],
    ["fix the failing test"],
    ["Refactor"],
    ["chat", "--bogus"],
    ["exec", "--bogus"],
    ["sessions", "list"],
    ["--help"],
    ["help"],
    ["sesions"],
  ];
  for (const argv of lines) {
    const chat = withDefaultCommand(program, argv)[0] === "chat";
    const expected = chat ? "chat" : "cli";
    it(`codewhale ${argv.join(" ") || "(nothing)"} starts from ${expected}.cjs`, () => {
      assert.deepEqual(bundlesStarted(argv), [expected]);
    });
  }
});
