// The top-level help through the built CLI: it names every environment variable codewhale
// reads (and only the top level carries the list, not each command's help).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCli } from "../support/cli.ts";

describe("codewhale --help", () => {
  it("names the environment variables", () => {
    const run = runCli(["--help"]);
    assert.equal(run.status, 0, run.stderr);
    const block = run.stdout.slice(run.stdout.indexOf("\nEnvironment:\n"));
    for (const name of [
      "CODEWHALE_HOME",
      "ANTHROPIC_API_KEY",
      "ANTHROPIC_BASE_URL",
      "OPENAI_API_KEY",
      "OPENAI_BASE_URL",
      "CODEWHALE_DEBUG",
      "TZ",
    ]) {
      assert.match(block, new RegExp(`^ {2}${name} `, "m"), name);
    }
    assert.doesNotMatch(runCli(["sessions", "--help"]).stdout, /Environment:/);
  });
});
