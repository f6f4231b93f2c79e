// What the interactive terminal's first frame loads: dist/tui.cjs, beside cli.cjs. It must not
// carry a second copy of what cli.cjs has or loads on first use (zod, the provider SDKs and their
// fetch): those are most of a start's work, and a re-export through a layer's index is enough
// to pull them in.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { repoRoot } from "../support/cli.ts";

const bundle = join(repoRoot, "dist/tui.cjs");

describe("the terminal UI's bundle", () => {
  it("carries no zod and no provider SDK", () => {
    const source = readFileSync(bundle, "utf8");
    for (const marker of ["ZodError", "anthropic-version", "OpenAI", "web-streams-polyfill"]) {
      assert.equal(source.includes(marker), false, `dist/tui.cjs holds ${marker}`);
    }
  });
});
