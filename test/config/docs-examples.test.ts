// Every TOML example in docs/config.md must load without a problem, so the docs cannot drift
// from the schema.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, it } from "node:test";
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
      const report = inspectConfig({ cwd: layout.project, env: layout.env() });
      assert.deepEqual(
        report.problems.map((problem) => problem.message),
        [],
      );
      assert.ok(report.loaded);
    });
  });
});
