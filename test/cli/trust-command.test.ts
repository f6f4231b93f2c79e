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

const FP = /^sha256:[0-9a-f]{64}$/;

/** The fingerprint `trust --show` prints for the project as it is now. */
async function shownFingerprint(): Promise<string> {
  const shown = await codewhale("trust", "--show");
  const fingerprint = /^fingerprint: (\S+)$/m.exec(shown)?.[1] ?? "";
  assert.match(fingerprint, FP);
  return fingerprint;
}

describe("codewhale trust", () => {
  it("records the project root with its fingerprint in the user file, keeping its comments", async () => {
    layout.writeProject('model = "anthropic/x"\n[[hooks.Stop]]\ncommand = "./stop.sh"\n');
    layout.writeUser(
      '# my settings\nmodel = "anthropic/claude-sonnet-4-5" # default\n\n[retry]\nmax_retries = 2 # flaky wifi\n',
    );
    const fingerprint = await shownFingerprint();
    assert.equal(
      await codewhale("trust"),
      `trusted ${layout.project} as it is now (${fingerprint}, in ${layout.userFile})\n`,
    );
    assert.equal(
      readFileSync(layout.userFile, "utf8"),
      `# my settings\nmodel = "anthropic/claude-sonnet-4-5" # default\n\ntrusted_projects = [\n  { path = ${JSON.stringify(layout.project)}, fingerprint = "${fingerprint}" },\n]\n\n[retry]\nmax_retries = 2 # flaky wifi\n`,
    );
    assert.equal(
      await codewhale("trust", layout.nested),
      `already trusted: ${layout.project} (${fingerprint})\n`,
    );
    assert.equal(await codewhale("trust", "--list"), `${layout.project}  ${fingerprint}\n`);
  });

  it("creates the user file when there is none, and untrust removes the entry", async () => {
    layout.writeProject("");
    assert.equal(await codewhale("trust", "--list"), "no trusted projects\n");
    await codewhale("trust");
    assert.match(
      readFileSync(layout.userFile, "utf8"),
      /^trusted_projects = \[\n {2}\{ path = ".*", fingerprint = "sha256:[0-9a-f]{64}" \},\n\]\n$/,
    );
    assert.equal(await codewhale("untrust"), `no longer trusted: ${layout.project}\n`);
    assert.equal(readFileSync(layout.userFile, "utf8"), "trusted_projects = []\n");
    assert.equal(await codewhale("untrust"), `not trusted: ${layout.project}\n`);
  });

  it("--show prints what would be trusted, secrets masked, and the state", async () => {
    const token = `ghp_${"a1B2".repeat(9)}`;
    layout.writeProject(
      `model = "anthropic/x"\n[providers.corp]\nkind = "openai-chat"\nbase_url = "http://user:hunter22@127.0.0.1:9/v1"\nheaders = { Authorization = "Bearer ${token}" }\n[retry]\nmax_retries = 1\n`,
    );
    const shown = await codewhale("trust", "--show");
    assert.match(shown, /^state: not trusted$/m);
    assert.match(shown, /^ {2}providers\.corp\.base_url = "http:\/\/\*\*\*@127\.0\.0\.1:9\/v1"$/m);
    assert.match(shown, /^ {2}providers\.corp\.headers\.Authorization = "\*\*\*"$/m);
    assert.ok(!shown.includes("hunter22") && !shown.includes(token), "no credential printed");
    assert.ok(!shown.includes("retry.max_retries"), "settings that need no trust are not listed");
    assert.ok(!shown.includes("model ="), "the model choice needs no trust");
    await codewhale("trust");
    assert.match(await codewhale("trust", "--show"), /^state: trusted \(these settings/m);
    layout.writeProject('[permissions]\nmode = "bypass"\n');
    const changed = await codewhale("trust", "--show");
    assert.match(changed, /^state: changed since you trusted it/m);
    assert.match(changed, /^ {2}permissions\.mode = "bypass"$/m);
  });

  it("--fingerprint trusts only the settings that were reviewed", async () => {
    layout.writeProject('[[hooks.Stop]]\ncommand = "./a.sh"\n');
    const reviewed = await shownFingerprint();
    layout.writeProject('[[hooks.Stop]]\ncommand = "./evil.sh"\n');
    await assert.rejects(
      codewhale("trust", "--fingerprint", reviewed),
      (error: unknown) =>
        error instanceof UsageError &&
        error.message.includes("changed since it was reviewed") &&
        error.message.includes(`not ${reviewed}`),
    );
    assert.equal(existsSync(layout.userFile), false, "nothing was trusted");
    const now = await shownFingerprint();
    assert.match(await codewhale("trust", "--fingerprint", now), /^trusted /);
  });

  it("replaces a path-only record from before fingerprints when trusted again", async () => {
    layout.writeProject('[[hooks.Stop]]\ncommand = "./a.sh"\n');
    layout.writeUser(`trusted_projects = [${JSON.stringify(layout.project)}]\n`);
    assert.match(await codewhale("trust", "--list"), /path only, from before fingerprints/);
    assert.match(await codewhale("trust", "--show"), /^state: trusted by path before/m);
    await codewhale("trust");
    const records = readFileSync(layout.userFile, "utf8");
    assert.equal(records.split(JSON.stringify(layout.project)).length, 2, "one record, replaced");
    assert.match(records, /fingerprint = "sha256:/);
  });

  it("refuses to trust a directory with no project file", async () => {
    await assert.rejects(
      codewhale("trust"),
      (error: unknown) => error instanceof UsageError && /^nothing to trust/.test(error.message),
    );
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
