// What a filtered run of scripts/test.mjs prepares (scripts/test-selection.mjs): dist/ is built
// only when a selected file runs the built CLI (itself or through the support files it imports),
// and the system tools are those the selected files name. The in-process terminal tests and the
// agent's tests import the mock provider's config and fake keys without the CLI. The files
// start costliest first (scripts/test-costs.mjs), their costs read from a full run's spec log.
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
const costs = new URL("../../scripts/test-costs.mjs", import.meta.url).href;
const { orderByCost, costsFromLog } = (await import(costs)) as {
  orderByCost(files: string[]): string[];
  costsFromLog(
    log: string,
    files: string[],
    read: (file: string) => string,
  ): Record<string, number>;
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

describe("the order a run starts its files in", () => {
  it("starts the costliest first and a file the table does not name among the cheap ones", () => {
    const files = [
      "test/bus/bus.test.ts",
      "test/not-in-the-table.test.ts",
      "test/cli/exec-compaction.test.ts",
      "test/permissions/bash-fuzz.test.ts",
    ];
    const ordered = orderByCost(files);
    assert.deepEqual(ordered.slice(0, 2), [
      "test/cli/exec-compaction.test.ts",
      "test/permissions/bash-fuzz.test.ts",
    ]);
    assert.deepEqual(ordered.slice(2).sort(), [files[0], files[1]].sort());
  });

  it("reads each file's cost from the top-level suites of a spec log", () => {
    const sources: Record<string, string> = {
      "test/a.test.ts": 'describe("the slow one", () => {});\ntest("alone", () => {});\n',
      "test/b.test.ts": "describe('the \\'quick\\' one', () => {});\n",
    };
    const log = [
      "▶ the slow one",
      "  ✔ a case (2500.5ms)",
      "✔ the slow one (2600.1ms)",
      "✔ alone (900ms)",
      "✔ the 'quick' one (1400ms)",
      "✔ a suite of no file (9000ms)",
    ].join("\n");
    const table = costsFromLog(log, Object.keys(sources), (file) => sources[file]!);
    assert.deepEqual(table, { "test/a.test.ts": 4, "test/b.test.ts": 1 });
  });
});
