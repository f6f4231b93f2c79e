// What every test sees of its environment under scripts/test.mjs: a fresh HOME and
// CODEWHALE_HOME inside the run's scratch dir, no provider key and no CODEWHALE_* setting of
// the developer's shell. test-runner.test.ts runs this file under a hostile HOME.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { resolveHome } from "../../src/config/home.ts";
import { loadConfig } from "../../src/config/load.ts";
import { tempDir } from "../support/session-fixtures.ts";

describe("the tests' environment", () => {
  it("HOME and CODEWHALE_HOME are fresh dirs in the run's scratch dir, and no XDG dir is inherited", () => {
    const scratch = tmpdir();
    for (const name of ["HOME", "CODEWHALE_HOME"]) {
      const value = process.env[name] ?? "";
      assert.ok(value.startsWith(`${scratch}/`), `${name}=${value} is not inside ${scratch}`);
    }
    assert.deepEqual(
      Object.keys(process.env).filter((name) => name.startsWith("XDG_")),
      [],
      "XDG dirs fall back to the fresh HOME",
    );
    assert.equal(resolveHome(process.env), process.env.CODEWHALE_HOME);
    assert.equal(existsSync(join(resolveHome(process.env), "config.toml")), false);
  });

  it("no provider key and no codewhale setting of the developer's shell is inherited", () => {
    const leaked = Object.keys(process.env).filter(
      (name) =>
        /^(ANTHROPIC_|OPENAI_|CLAUDE_)|_API_KEY$/.test(name) ||
        (name.startsWith("CODEWHALE_") && name !== "CODEWHALE_HOME"),
    );
    assert.deepEqual(leaked, []);
  });

  it("the config a test loads has no file in it: every value is a built-in default", () => {
    const loaded = loadConfig({ cwd: tempDir("cw-hermetic-"), env: process.env });
    assert.deepEqual(loaded.files, []);
    assert.deepEqual(new Set(loaded.sources.values()), new Set(["default"]));
  });
});
