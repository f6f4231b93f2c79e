// The registry and the lazy SDK rule: index.ts maps each kind to its stream function, and no
// module under src/providers imports an SDK at load time (only `import type` or `await import`).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { streamFor, streamFunctions } from "../../src/providers/index.ts";
import { KINDS } from "./helpers.ts";

describe("provider registry", () => {
  it("has a stream function for every kind", () => {
    for (const kind of KINDS) assert.equal(typeof streamFor(kind), "function");
    assert.deepEqual(Object.keys(streamFunctions).sort(), [...KINDS].sort());
  });

  it("never imports an SDK eagerly", () => {
    const dir = "src/providers";
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const source = readFileSync(join(dir, file), "utf8");
      const eager = source.match(
        /^import (?!type )[^;]*from "(@anthropic-ai\/sdk|openai)[^"]*";/gm,
      );
      assert.equal(eager, null, `${file} imports an SDK at load time`);
    }
  });
});
