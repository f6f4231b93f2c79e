// What a filtered run of scripts/test.mjs prepares (scripts/test-selection.mjs): dist/ is built
// only when a selected file runs the built CLI (itself or through the support files it imports),
// and the system tools are those the selected files name. The in-process terminal tests and the
// agent's tests import the mock provider's config and fake keys without the CLI.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

interface Needs {
  dist: boolean;
  tools: Set<string>;
}
const selection = new URL("../../scripts/test-selection.mjs", import.meta.url).href;
const { needsOf } = (await import(selection)) as {
  needsOf(files: string[]): Needs;
};

describe("a filtered test run", () => {
  it("builds dist/ for a file that runs the CLI, directly or through a support file", () => {
    assert.equal(needsOf(["test/cli/exec-command.test.ts"]).dist, true);
    assert.equal(needsOf(["test/tui/interactive.test.ts"]).dist, true);
    assert.ok(needsOf(["test/tui/interactive.test.ts"]).tools.has("tmux"));
  });

  it("builds nothing for files that only use the mock provider's config, fake keys or the repo root", () => {
    for (const file of [
      "test/agent/minimal-surface.test.ts",
      "test/agent/tool-sources.test.ts",
      "test/tools/bash-terminal.test.ts",
      "test/present/tool-presentations.test.ts",
      "test/cli/golden-support.test.ts",
      "test/tui/turn-errors.test.ts",
      "test/agent/output-limit-cut-call.test.ts",
      "test/config/load.test.ts",
    ]) {
      const needs = needsOf([file]);
      assert.equal(needs.dist, false, `${file} needs no dist/`);
      assert.deepEqual([...needs.tools], [], `${file} needs no system tool`);
    }
  });
});
