// A line cut for length (read at 2,000 characters, grep at 500) never ends in part of a key:
// the cut falls back to the end of the last whole token, so what the output policy cannot
// recognise as a secret is not shown either. Keys placed across the cut at every offset.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, describe, it } from "node:test";
import { GREP_MAX_LINE_CHARS } from "../../src/tools/builtin/grep-search.ts";
import { createGrepTool, createReadTool } from "../../src/tools/builtin/index.ts";
import { READ_MAX_LINE_CHARS } from "../../src/tools/builtin/read.ts";
import { tokenCut } from "../../src/tools/builtin/text-file.ts";
import { skipWithout } from "../support/system-tools.ts";
import { callTool, createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-cut-secrets-");
after(() => ws.cleanup());

const key = `sk-ant-api03-${randomBytes(24).toString("base64url")}`;
/** The key's visible start that would identify it; nothing this long may survive a cut. */
const prefix = key.slice(0, 16);

/** Lines whose key starts `back` characters before column `column`. */
function lines(column: number): string {
  const out: string[] = [];
  for (let back = 1; back < key.length; back += 3) {
    out.push(`${"w ".repeat((column - back) / 2)}${(column - back) % 2 ? "w" : ""}${key} tail`);
  }
  return `${out.join("\n")}\n`;
}

describe("a cut line never shows part of a key", () => {
  it("read, with keys across column 2,000", async () => {
    ws.write({ "read.txt": lines(READ_MAX_LINE_CHARS) });
    const result = await callTool(createReadTool(ws.context()), { path: "read.txt" });
    assert.ok(!result.content.includes(prefix.slice(0, 14)), "no part of the key is shown");
    assert.match(result.content, /more chars\]/);
  });

  for (const backend of ["js", "rg"] as const) {
    const skip = backend === "rg" && skipWithout("rg");
    it(`grep (${backend}), with keys across column 500`, { skip }, async () => {
      ws.write({ [`grep-${backend}/g.txt`]: lines(GREP_MAX_LINE_CHARS) });
      const grep = createGrepTool(ws.context(), { backend });
      const result = await callTool(grep, { pattern: "tail", path: `grep-${backend}` });
      assert.ok(!result.content.includes(prefix.slice(0, 14)), result.content.slice(0, 300));
      assert.match(result.content, /line cut at 500 chars/);
    });
  }

  it("cuts at the limit when the next character ends a token, and within 256 otherwise", () => {
    assert.equal(tokenCut("aaaa bbbb", 4, " "), 4);
    assert.equal(tokenCut("aaaa bbbb", 7, "b"), 5);
    assert.equal(tokenCut("x".repeat(600), 500, "x"), 500, "no boundary: the plain cut");
  });
});
