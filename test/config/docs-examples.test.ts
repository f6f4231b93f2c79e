// Every TOML example in docs/config.md must pass `config check` (schema, path keys and
// permission rules), so the docs cannot drift from what codewhale accepts.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, it } from "node:test";
import { CONFIG_LAYER_CHECKS } from "../../src/cli/config-layer-checks.ts";
import { inspectConfig } from "../../src/config/index.ts";
import type { TempLayout } from "./support/temp-config.ts";
import { createLayout } from "./support/temp-config.ts";

const docs = readFileSync(new URL("../../docs/config.md", import.meta.url), "utf8");
const examples = [...docs.matchAll(/```toml\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");

let layout: TempLayout;
beforeEach(() => {
  layout = createLayout();
});
afterEach(() => layout.cleanup());

describe("docs/config.md examples", () => {
  it("has examples to check", () => {
    assert.ok(examples.length >= 3, `found ${examples.length} examples`);
  });

  examples.forEach((example, index) => {
    it(`example ${index + 1} is a valid config`, () => {
      const asProject = !example.includes("trusted_projects");
      if (asProject) layout.writeProject(example);
      else layout.writeUser(example);
      const layerChecks = CONFIG_LAYER_CHECKS;
      const report = inspectConfig({ cwd: layout.project, env: layout.env(), layerChecks });
      assert.deepEqual(
        report.problems.map((problem) => problem.message),
        [],
      );
      assert.ok(report.loaded);
    });
  });
});
