// The JS grep's worker is eval'd from its function's source: bundled and minified as
// scripts/build.mjs does it (esbuild, CommonJS, keepNames), that source must still run on its own,
// find matches and stop a catastrophic pattern at the line time limit.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { build } from "esbuild";
import type { grepWithJs } from "../../src/tools/builtin/grep-js.ts";
import type { GrepQuery } from "../../src/tools/builtin/grep-search.ts";
import { createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-grep-bundle-");
after(() => ws.cleanup());

describe("grep (js) from the minified bundle", () => {
  let bundled: typeof grepWithJs;
  const query = (pattern: string): GrepQuery => ({
    pattern,
    ignoreCase: false,
    filesOnly: false,
    target: ws.dir,
    root: ws.dir,
  });

  before(async () => {
    ws.write({ "cat.txt": `fine\n${"a".repeat(40)}!\n` });
    const outfile = join(ws.dir, "..", "grep-js.cjs");
    await build({
      entryPoints: [new URL("../../src/tools/builtin/grep-js.ts", import.meta.url).pathname],
      outfile,
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      minify: true,
      keepNames: true,
      logLevel: "warning",
    });
    bundled = createRequire(import.meta.url)(outfile).grepWithJs;
  });

  it("finds matches", async () => {
    const outcome = await bundled(query("^fine$"));
    assert.deepEqual(outcome, {
      ok: true,
      hits: {
        matches: [{ path: join(ws.dir, "cat.txt"), line: 1, text: "fine" }],
        files: [],
        warnings: [],
        capped: false,
      },
    });
  });

  it("stops a catastrophic pattern at the limit", async () => {
    const outcome = await bundled(query("^(a+)+$"), { lineTimeLimitMs: 300 });
    assert.equal(outcome.ok, false);
    assert.match(
      outcome.ok ? "" : outcome.error,
      /^the pattern took longer than 0\.3 s on one line \(cat\.txt:2\)/,
    );
  });
});
