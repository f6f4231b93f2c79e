// Every TOML example in docs/permissions.md and docs/hooks.md loads as a user config, and its
// permission rules and hook matchers compile, so the user docs cannot drift from the code.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, it } from "node:test";
import { inspectConfig } from "../../src/config/index.ts";
import { effectivePolicy } from "../../src/hooks/index.ts";
import { compilePolicy } from "../../src/permissions/index.ts";
import type { TempLayout } from "../config/support/temp-config.ts";
import { createLayout } from "../config/support/temp-config.ts";

let layout: TempLayout;
beforeEach(() => {
  layout = createLayout();
});
afterEach(() => layout.cleanup());

for (const doc of ["permissions.md", "hooks.md"]) {
  const text = readFileSync(new URL(`../../docs/${doc}`, import.meta.url), "utf8");
  const examples = [...text.matchAll(/```toml\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
  describe(`docs/${doc} examples`, () => {
    it("has examples", () => assert.ok(examples.length > 0));
    examples.forEach((example, index) => {
      it(`example ${index + 1} loads, and its rules and matchers compile`, () => {
        layout.writeUser(example);
        const report = inspectConfig({ cwd: layout.project, env: layout.env() });
        assert.deepEqual(
          report.problems.map((problem) => problem.message),
          [],
        );
        assert.ok(report.loaded);
        const policy = effectivePolicy(report.loaded);
        assert.doesNotThrow(() => compilePolicy(policy.permissions));
      });
    });
  });
}
