// grep on text that is not plain UTF-8: bytes that are not UTF-8 show as U+FFFD (�), a UTF-8
// BOM is dropped and UTF-16 files with a BOM are searched as text, on both backends alike; a
// long line is cut the same way whatever its bytes.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createGrepTool } from "../../src/tools/builtin/index.ts";
import type { AnyTool } from "../../src/tools/types.ts";
import { skipWithout } from "../support/system-tools.ts";
import { callTool, createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-grep-enc-");
after(() => ws.cleanup());
const rgReason = skipWithout("rg");

before(() =>
  ws.write({
    "raw/u.txt": Buffer.from([0x68, 0x69, 0xff, 0xfe, 0x0a, 0x6f, 0x6b, 0x20, 0x68, 0x69, 0x0a]),
    "raw/latin1.txt": Buffer.from("caf\xe9 au lait\n", "latin1"),
    "raw/long.txt": Buffer.concat([Buffer.from([0xe9]), Buffer.from(`${"z".repeat(3000)}\n`)]),
    "bom/utf8.cs": Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("using System;\n")]),
    "bom/le.txt": Buffer.from("\ufeffusing utf16le\r\nnext\r\n", "utf16le"),
    "bom/be.txt": Buffer.from("\ufeffusing utf16be\n", "utf16le").swap16(),
  }),
);

function encodingSuite(backend: "js" | "rg", skip: string | false) {
  describe(`grep (${backend}) on bytes that are not plain UTF-8`, { skip }, () => {
    const grep = createGrepTool(ws.context(), { backend });

    it("shows invalid UTF-8 bytes as U+FFFD and still matches the rest", async () => {
      const result = await callTool(grep, { pattern: "hi", path: "raw/u.txt" });
      assert.equal(
        result.content,
        "raw/u.txt:1:hi\uFFFD\uFFFD\nraw/u.txt:2:ok hi\n(2 matches in 1 file)\n",
      );
      const latin1 = await callTool(grep, { pattern: "au lait", path: "raw" });
      assert.equal(latin1.content, "raw/latin1.txt:1:caf\uFFFD au lait\n(1 match in 1 file)\n");
    });

    it("cuts a long line that starts with a bad byte like any other", async () => {
      const result = await callTool(grep, { pattern: "z{10}", path: "raw/long.txt" });
      const shown = `\uFFFD${"z".repeat(499)}… [line cut at 500 chars]`;
      assert.equal(result.content, `raw/long.txt:1:${shown}\n(1 match in 1 file)\n`);
    });

    it("drops a UTF-8 BOM, so ^ matches at the start of the first line", async () => {
      const result = await callTool(grep, { pattern: "^using", path: "bom/utf8.cs" });
      assert.equal(result.content, "bom/utf8.cs:1:using System;\n(1 match in 1 file)\n");
    });

    it("searches UTF-16 files with a BOM as text", async () => {
      const result = await callTool(grep, { pattern: "^using utf16", path: "bom" });
      assert.equal(
        result.content,
        "bom/be.txt:1:using utf16be\nbom/le.txt:1:using utf16le\n(2 matches in 2 files)\n",
      );
    });
  });
}

encodingSuite("js", false);
encodingSuite("rg", rgReason);

describe("grep backends agree on encodings", { skip: rgReason }, () => {
  const tools: Record<string, AnyTool> = {};
  before(() => {
    tools.js = createGrepTool(ws.context(), { backend: "js" });
    tools.rg = createGrepTool(ws.context(), { backend: "rg" });
  });
  for (const query of [{ pattern: "." }, { pattern: "i", files_only: true }, { pattern: "^n" }]) {
    it(`gives the same result for ${JSON.stringify(query)}`, async () => {
      const js = await callTool(tools.js!, query);
      const rg = await callTool(tools.rg!, query);
      assert.equal(rg.content, js.content);
    });
  }
});
