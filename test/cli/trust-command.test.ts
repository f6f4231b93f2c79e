// `codewhale trust`, `trust --list` and `untrust` on a real user file in a temp CODEWHALE_HOME:
// the project root is found from any directory inside it, and the edit keeps comments.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, it } from "node:test";
import { Command } from "commander";
import { registerTrustCommand } from "../../src/cli/trust-command.ts";
import type { TempLayout } from "../config/support/temp-config.ts";
import { createLayout } from "../config/support/temp-config.ts";

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
});
