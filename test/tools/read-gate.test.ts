// Read deny (and ask) rules hold for every tool that reads: with `read(.env)` and
// `read(secrets/)`, grep (both backends, no path, path ".", a glob naming the file), glob and
// ls leave the covered files out and say how many, never what they hold; read and edit refuse
// them by name; the count does not depend on the content (no oracle for a pattern).
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { PermissionContext } from "../../src/permissions/index.ts";
import { compilePolicy, readGateFor } from "../../src/permissions/index.ts";
import {
  createEditTool,
  createGlobTool,
  createGrepTool,
  createLsTool,
  createReadTool,
} from "../../src/tools/builtin/index.ts";
import { skipWithout } from "../support/system-tools.ts";
import { callTool, createWorkspace } from "./support/workspace.ts";

const SECRET = `sk-test-${Math.random().toString(36).slice(2)}`;
const ws = createWorkspace("cw-readgate-");
after(() => ws.cleanup());
ws.write({
  ".env": `API_KEY=${SECRET}\n`,
  "app/.env": `NESTED=${SECRET}\n`,
  "secrets/prod.txt": `token ${SECRET}\n`,
  "src/app.ts": "const key = process.env.API_KEY;\n",
});

function gateFor(deny: string[], ask: string[] = []) {
  const entries = (list: string[]) => list.map((text) => ({ text, source: "flag" }));
  const policy = compilePolicy({
    mode: "default",
    allow: [],
    ask: entries(ask),
    deny: entries(deny),
  });
  const ctx: PermissionContext = { workspaceRoot: ws.dir, cwd: ws.dir, home: "/nonexistent" };
  return readGateFor(policy, ctx);
}

const context = ws.context({ readGate: gateFor(["read(.env)", "read(secrets/)"]) });
const rgReason = skipWithout("rg");

for (const backend of ["js", "rg"] as const) {
  describe(`grep (${backend}) with read deny rules`, { skip: backend === "rg" && rgReason }, () => {
    const grep = createGrepTool(context, { backend });

    it("no path, path '.' and a glob naming the file: covered files are skipped and counted", async () => {
      for (const args of [{}, { path: "." }, { glob: ".env" }, { glob: "**/.env" }]) {
        const result = await callTool(grep, { pattern: "API_KEY", ...args });
        assert.equal(result.content.includes(SECRET), false, JSON.stringify(args));
        assert.equal(result.isError, undefined);
      }
      const all = await callTool(grep, { pattern: "API_KEY" });
      assert.equal(
        all.content,
        "src/app.ts:1:const key = process.env.API_KEY;\n" +
          "(3 files skipped: a permission rule covers reading them)\n" +
          "(1 match in 1 file)\n",
      );
      const named = await callTool(grep, { pattern: "API_KEY", glob: ".env" });
      assert.equal(
        named.content,
        "No matches.\n(2 files skipped: a permission rule covers reading them)\n",
      );
    });

    it("the count is the same whatever the pattern: it says nothing about the content", async () => {
      const hit = await callTool(grep, { pattern: `^API_KEY=${SECRET}$`, files_only: true });
      const miss = await callTool(grep, { pattern: "^API_KEY=nothing$", files_only: true });
      assert.equal(hit.content, miss.content);
      assert.equal(
        hit.content,
        "No files match.\n(3 files skipped: a permission rule covers reading them)\n",
      );
    });

    it("a covered file named as the path is refused by name", async () => {
      const result = await callTool(grep, { pattern: "x", path: ".env" });
      assert.deepEqual(result, {
        content: ".env: a permission rule covers grep reading it",
        isError: true,
      });
    });
  });
}

describe("glob, ls, read and edit with read deny rules", () => {
  it("glob leaves covered files out and counts them", async () => {
    const glob = createGlobTool(context);
    assert.equal(
      (await callTool(glob, { pattern: "**/*" })).content,
      "src/app.ts\n(3 files skipped: a permission rule covers reading them)",
    );
    assert.equal(
      (await callTool(glob, { pattern: "**/.env" })).content,
      "No files match **/.env in ..\n(2 files skipped: a permission rule covers reading them)",
    );
  });

  it("ls leaves covered entries out and counts them", async () => {
    const ls = createLsTool(context);
    assert.equal(
      (await callTool(ls, {})).content,
      "app/\nsrc/\n(2 entries skipped: a permission rule covers reading them)",
    );
    assert.equal(
      (await callTool(ls, { path: "app" })).content,
      "(app is empty)\n(1 entry skipped: a permission rule covers reading it)",
    );
  });

  it("read and edit refuse a covered file by name (edit reads what it changes)", async () => {
    const read = await callTool(createReadTool(context), { path: "app/.env" });
    assert.equal(read.content, "app/.env: a permission rule covers read reading it");
    const edit = await callTool(createEditTool(context), {
      path: ".env",
      old_string: "API_KEY=",
      new_string: "X_API_KEY=",
    });
    assert.equal(edit.content, ".env: a permission rule covers edit reading it");
  });

  it("an ask rule with a path leaves files out too; a bare rule decides the whole call instead", async () => {
    const asked = ws.context({ readGate: gateFor([], ["read(secrets/**)"]) });
    const glob = createGlobTool(asked);
    assert.match((await callTool(glob, { pattern: "secrets/*" })).content, /1 file skipped/);
    assert.equal(gateFor(["read"]).active, false);
    assert.equal(gateFor(["bash(cat:*)"]).active, false);
  });

  it("without rules nothing is left out", async () => {
    const glob = createGlobTool(ws.context());
    assert.match((await callTool(glob, { pattern: "**/*" })).content, /^\.env\napp\/\.env\n/);
  });
});
