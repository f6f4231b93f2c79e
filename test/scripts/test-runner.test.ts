// scripts/test.mjs as a developer runs it: from a shell whose HOME holds a hostile
// ~/.codewhale/config.toml and whose environment has a key and codewhale settings, none of
// which reaches a test; and, without a system tool a selected test needs, one line saying so.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../support/session-fixtures.ts";

/** A run of its own, not a child of this test (which Node's runner would report through). */
function runTests(filter: string, env: NodeJS.ProcessEnv) {
  const { NODE_TEST_CONTEXT: _, ...own } = env;
  return spawnSync(process.execPath, ["scripts/test.mjs", filter], { encoding: "utf8", env: own });
}

describe("scripts/test.mjs", () => {
  it("a developer's HOME with a hostile ~/.codewhale/config.toml, keys and CODEWHALE_* settings reach no test", () => {
    const home = tempDir("cw-dev-home-");
    mkdirSync(join(home, ".codewhale"));
    writeFileSync(
      join(home, ".codewhale", "config.toml"),
      'model = "canary/broken"\n[[[ not toml\n',
    );
    const run = runTests("test/scripts/hermetic-env", {
      ...process.env,
      HOME: home,
      CODEWHALE_HOME: join(home, ".codewhale"),
      CODEWHALE_DEBUG: "1",
      ANTHROPIC_API_KEY: "sk-ant-canary",
      OPENAI_BASE_URL: "http://127.0.0.1:9/canary",
      XDG_CONFIG_HOME: join(home, ".config"),
    });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /pass 3/);
  });

  it("without a tool a selected test needs, it stops at once with one line naming it and its package", () => {
    // A PATH with node and nothing else.
    const bin = tempDir("cw-bare-path-");
    symlinkSync(process.execPath, join(bin, "node"));
    const run = runTests("test/tui/permission-prompts", { ...process.env, PATH: bin, CI: "" });
    assert.equal(run.status, 1);
    assert.equal(run.stderr, "test: missing tmux; install with: sudo apt-get install -y tmux\n");
    assert.equal(run.stdout, "");
  });
});
