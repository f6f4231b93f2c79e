// glob and grep over a real tree with .gitignore files (root and nested, with a negation):
// ignored files never show; grep's JS fallback is always tested, the rg path when rg is on the
// PATH (skipped with a reason otherwise), and both must give byte-identical results.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import {
  createBashTool,
  createGlobTool,
  createGrepTool,
  grepBackendFor,
} from "../../src/tools/builtin/index.ts";
import type { AnyTool } from "../../src/tools/types.ts";
import { skipWithout } from "../support/system-tools.ts";
import { callTool, createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-grep-");
after(() => ws.cleanup());
ws.write({
  ".gitignore": "dist/\n*.log\n",
  "src/app.ts": "export const hello = 1;\nconst Hello = 2;\n",
  "src/util.ts": "// hello from util\nexport {};\n",
  "src/gen/.gitignore": "*.ts\n!keep.ts\n",
  "src/gen/out.ts": "hello generated\n",
  "src/gen/keep.ts": "hello kept\n",
  "dist/bundle.js": "hello bundled\n",
  "debug.log": "hello log\n",
  ".github/ci.yml": "run: hello\n",
  "docs/readme.md": "say hello\n",
  "bin.dat": Buffer.from("hello\0binary"),
});
const rgReason = skipWithout("rg");

describe("glob", () => {
  const glob = createGlobTool(ws.context());

  it("finds files by pattern, sorted, skipping ignored ones", async () => {
    const result = await callTool(glob, { pattern: "**/*.ts" });
    assert.equal(result.content, "src/app.ts\nsrc/gen/keep.ts\nsrc/util.ts\n");
  });

  it("matches relative to path, dotfiles included", async () => {
    assert.equal(
      (await callTool(glob, { pattern: "*.ts", path: "src" })).content,
      "src/app.ts\nsrc/util.ts\n",
    );
    assert.equal((await callTool(glob, { pattern: "**/*.yml" })).content, ".github/ci.yml\n");
  });

  it("says when nothing matches and refuses a missing or outside path", async () => {
    assert.equal((await callTool(glob, { pattern: "*.rs" })).content, "No files match *.rs in ..");
    const missing = await callTool(glob, { pattern: "*", path: "nope" });
    assert.deepEqual(missing, { content: "Directory not found: nope", isError: true });
    assert.match(
      (await callTool(glob, { pattern: "*", path: ".." })).content,
      /outside the workspace/,
    );
  });
});

/** The grep contract, run against one backend. */
function grepSuite(backend: "js" | "rg", skip: string | false) {
  describe(`grep (${backend})`, { skip }, () => {
    const grep = createGrepTool(ws.context(), { backend });

    it("prints path:line:text sorted, skipping ignored and binary files", async () => {
      const result = await callTool(grep, { pattern: "hello" });
      assert.equal(
        result.content,
        [
          ".github/ci.yml:1:run: hello",
          "docs/readme.md:1:say hello",
          "src/app.ts:1:export const hello = 1;",
          "src/gen/keep.ts:1:hello kept",
          "src/util.ts:1:// hello from util",
          "(5 matches in 5 files)",
          "",
        ].join("\n"),
      );
    });

    it("filters by glob and path, ignores case, lists files only", async () => {
      const ts = await callTool(grep, { pattern: "hello", glob: "*.ts", ignore_case: true });
      assert.equal(
        ts.content,
        "src/app.ts:1:export const hello = 1;\nsrc/app.ts:2:const Hello = 2;\nsrc/gen/keep.ts:1:hello kept\nsrc/util.ts:1:// hello from util\n(4 matches in 3 files)\n",
      );
      const files = await callTool(grep, { pattern: "hello", path: "src", files_only: true });
      assert.equal(files.content, "src/app.ts\nsrc/gen/keep.ts\nsrc/util.ts\n(3 files)\n");
    });

    it("reports no matches and a bad regex", async () => {
      assert.equal((await callTool(grep, { pattern: "zzz_nothing" })).content, "No matches.\n");
      const bad = await callTool(grep, { pattern: "(unclosed" });
      assert.equal(bad.isError, true);
      assert.match(bad.content, /regex|unclosed|parse/i);
    });

    it("searches the session's spill files", async () => {
      const context = ws.context({ output: { max_bytes: 200 } });
      const run = await callTool(createBashTool(context), { command: "seq 1 3000" });
      const tool = createGrepTool(context, { backend });
      const result = await callTool(tool, { pattern: "^2999$", path: run.spillPath });
      assert.equal(result.content, `${run.spillPath}:2999:2999\n(1 match in 1 file)\n`);
    });
  });
}

grepSuite("js", false);
grepSuite("rg", rgReason);

describe("grep backends agree", { skip: rgReason }, () => {
  const queries: Record<string, unknown>[] = [
    { pattern: "hello" },
    { pattern: "h.llo", ignore_case: true, path: "src" },
    { pattern: "hello", files_only: true },
    { pattern: "const", glob: "*.ts" },
    { pattern: "export", path: "src/app.ts" },
    { pattern: "export", path: "src/app.ts", glob: "*.md" },
    { pattern: "(bad" },
  ];
  const tools: Record<string, AnyTool> = {
    js: createGrepTool(ws.context(), { backend: "js" }),
    rg: createGrepTool(ws.context(), { backend: "rg" }),
  };
  for (const query of queries) {
    it(`gives the same result for ${JSON.stringify(query)}`, async () => {
      const js = await callTool(tools.js!, query);
      const rg = await callTool(tools.rg!, query);
      assert.equal(rg.isError, js.isError);
      // Errors share their shape; the regex engines word the reason differently.
      if (js.isError) assert.match(rg.content, /^invalid regex: /);
      else assert.equal(rg.content, js.content);
    });
  }
});

describe("grep backend choice", () => {
  it("picks rg only when it is on the PATH", async () => {
    assert.equal(grepBackendFor({ PATH: "/nonexistent" }), "js");
    const auto = createGrepTool(ws.context({ env: { ...process.env, PATH: "/nonexistent" } }));
    const result = await callTool(auto, { pattern: "kept" });
    assert.equal(result.content, "src/gen/keep.ts:1:hello kept\n(1 match in 1 file)\n");
  });
});

describe("grep output policy", () => {
  it("bounds many matches with a marker and a spill file", async () => {
    ws.write({
      "many/lines.txt": `${Array.from({ length: 4000 }, (_, i) => `match ${i}`).join("\n")}\n`,
    });
    const context = ws.context({ output: { max_bytes: 1000 } });
    const result = await callTool(createGrepTool(context, { backend: "js" }), {
      pattern: "match",
      path: "many",
    });
    assert.equal(result.truncated, true);
    assert.match(result.content, /omitted; original output \d+ bytes, 4001 lines; full output in /);
    assert.match(result.content, /\(4000 matches in 1 file\)\n$/);
    assert.ok(result.spillPath);
  });
});
