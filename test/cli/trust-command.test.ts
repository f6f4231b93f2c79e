// `codewhale trust`, `trust --list` and `untrust` on a real user file in a temp CODEWHALE_HOME:
// the project root is found from any directory inside it, and the edit keeps comments.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { Command } from "commander";
import { registerTrustCommand } from "../../src/cli/trust-command.ts";
import { UsageError } from "../../src/errors.ts";
import type { TempLayout } from "../config/support/temp-config.ts";
import { createLayout } from "../config/support/temp-config.ts";
import { runCli } from "../support/cli.ts";

let layout: TempLayout;
let output: string;
beforeEach(() => {
  layout = createLayout();
  output = "";
});
afterEach(() => layout.cleanup());

async function codewhale(...args: string[]): Promise<string> {
  output = "";
  const program = new Command("codewhale").exitOverride();
  registerTrustCommand(program, () => ({
    env: layout.env(),
    cwd: layout.nested,
    write: (text) => {
      output += text;
    },
  }));
  await program.parseAsync(args, { from: "user" });
  return output;
}

describe("codewhale trust", () => {
  it("adds the project root to the user file, keeping its comments", async () => {
    layout.writeProject('model = "anthropic/x"\n');
    layout.writeUser(
      '# my settings\nmodel = "anthropic/claude-sonnet-4-5" # default\n\n[retry]\nmax_retries = 2 # flaky wifi\n',
    );
    assert.equal(await codewhale("trust"), `trusted ${layout.project} (in ${layout.userFile})\n`);
    assert.equal(
      readFileSync(layout.userFile, "utf8"),
      `# my settings\nmodel = "anthropic/claude-sonnet-4-5" # default\n\ntrusted_projects = [${JSON.stringify(layout.project)}]\n\n[retry]\nmax_retries = 2 # flaky wifi\n`,
    );
    assert.equal(await codewhale("trust", layout.nested), `already trusted: ${layout.project}\n`);
    assert.equal(await codewhale("trust", "--list"), `${layout.project}\n`);
  });

  it("creates the user file when there is none, and untrust removes the entry", async () => {
    layout.writeProject("");
    assert.equal(await codewhale("trust", "--list"), "no trusted projects\n");
    await codewhale("trust");
    assert.equal(
      readFileSync(layout.userFile, "utf8"),
      `trusted_projects = [${JSON.stringify(layout.project)}]\n`,
    );
    assert.equal(await codewhale("untrust"), `no longer trusted: ${layout.project}\n`);
    assert.equal(readFileSync(layout.userFile, "utf8"), "trusted_projects = []\n");
    assert.equal(await codewhale("untrust"), `not trusted: ${layout.project}\n`);
  });

  it("refuses a directory that does not exist, or a file, naming the path (exit 2)", async () => {
    const missing = join(layout.root, "no-such-dir");
    await assert.rejects(
      codewhale("trust", missing),
      (error: unknown) =>
        error instanceof UsageError &&
        error.message === `cannot trust ${missing}: no such directory`,
    );
    layout.writeProject("");
    await assert.rejects(
      codewhale("trust", layout.projectFile),
      (error: unknown) =>
        error instanceof UsageError &&
        error.message === `cannot trust ${layout.projectFile}: not a directory`,
    );
    assert.equal(existsSync(layout.userFile), false, "nothing was written");
  });

  it("from the command line, `codewhale trust /nonexistent` is one line and exit 2", () => {
    const run = runCli(["trust", "/nonexistent"], { env: { CODEWHALE_HOME: layout.home } });
    assert.equal(run.status, 2);
    assert.equal(run.stderr, "codewhale: cannot trust /nonexistent: no such directory\n");
    assert.equal(run.stdout, "");
    assert.equal(existsSync(layout.userFile), false);
  });
});
