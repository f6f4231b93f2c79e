// The write and edit tools on real files: create with parent dirs, overwrite, the edit's
// changed-lines report, and its helpful refusals (missing, not found, not unique, no-op,
// outside the workspace, not UTF-8, a file with a second hard link); CRLF files accept LF
// old_string, a BOM is kept.
import assert from "node:assert/strict";
import { linkSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createEditTool, createWriteTool } from "../../src/tools/builtin/index.ts";
import { callTool, createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-edit-");
after(() => ws.cleanup());
const context = ws.context();
const text = (path: string) => readFileSync(join(ws.dir, path), "utf8");

describe("write", () => {
  const write = createWriteTool(context);

  it("creates a file and its parent directories", async () => {
    const result = await callTool(write, { path: "deep/er/new.ts", content: "a\nb\n" });
    assert.equal(result.content, "Created deep/er/new.ts (2 lines, 4 bytes).");
    assert.equal(text("deep/er/new.ts"), "a\nb\n");
  });

  it("overwrites an existing file", async () => {
    ws.write({ "old.txt": "before" });
    const result = await callTool(write, { path: "old.txt", content: "after" });
    assert.equal(result.content, "Overwrote old.txt (1 line, 5 bytes).");
    assert.equal(text("old.txt"), "after");
  });

  it("refuses a directory and a path outside the workspace", async () => {
    const dir = await callTool(write, { path: "deep", content: "x" });
    assert.deepEqual(dir, { content: "deep is a directory", isError: true });
    const outside = await callTool(write, { path: "../escape.txt", content: "x" });
    assert.equal(outside.isError, true);
    assert.match(outside.content, /is outside the workspace/);
  });
});

describe("edit", () => {
  const edit = createEditTool(context);

  it("replaces a unique string and reports the changed lines", async () => {
    ws.write({ "e.ts": "const a = 1;\nconst b = 2;\nconst c = 3;\n" });
    const result = await callTool(edit, {
      path: "e.ts",
      old_string: "const b = 2;",
      new_string: "const b = 20;\nconst bb = 21;",
    });
    assert.equal(
      result.content,
      "Edited e.ts: 1 replacement at line 2.\n     2\tconst b = 20;\n     3\tconst bb = 21;\n",
    );
    assert.equal(text("e.ts"), "const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n");
  });

  it("refuses a string that is not unique, naming the lines", async () => {
    ws.write({ "dup.ts": "x = 1\ny = 2\nx = 1\n" });
    const result = await callTool(edit, {
      path: "dup.ts",
      old_string: "x = 1",
      new_string: "x = 9",
    });
    assert.equal(result.isError, true);
    assert.equal(
      result.content,
      "old_string occurs 2 times in dup.ts (lines 1, 3); include more surrounding lines to make it unique, or set replace_all to true",
    );
    assert.equal(text("dup.ts"), "x = 1\ny = 2\nx = 1\n");
  });

  it("replaces every occurrence with replace_all, at the new line numbers", async () => {
    ws.write({ "all.ts": "x = 1\ny = 2\nx = 1\n" });
    const result = await callTool(edit, {
      path: "all.ts",
      old_string: "x = 1",
      new_string: "x = 1\n// x",
      replace_all: true,
    });
    assert.equal(
      result.content,
      "Edited all.ts: 2 replacements at lines 1, 4.\n     1\tx = 1\n     2\t// x\n     4\tx = 1\n     5\t// x\n",
    );
  });

  it("explains a missing string, pointing at a near miss", async () => {
    ws.write({ "ws.ts": "function f() {\n    return 1;\n}\n" });
    const near = await callTool(edit, {
      path: "ws.ts",
      old_string: "function f() {\n  return 1;\n}",
      new_string: "",
    });
    assert.equal(near.isError, true);
    assert.match(
      near.content,
      /^old_string was not found in ws\.ts\. Its first line appears at line 1/,
    );
    const absent = await callTool(edit, {
      path: "ws.ts",
      old_string: "nothing like it",
      new_string: "x",
    });
    assert.equal(
      absent.content,
      "old_string was not found in ws.ts; read the file and copy the text exactly, whitespace included",
    );
  });

  it("refuses a missing file, an empty old_string and a no-op", async () => {
    const missing = await callTool(edit, { path: "none.ts", old_string: "a", new_string: "b" });
    assert.equal(missing.content, "File not found: none.ts (use write to create a file)");
    ws.write({ "n.ts": "a" });
    const empty = await callTool(edit, { path: "n.ts", old_string: "", new_string: "b" });
    assert.equal(empty.content, "old_string is empty; use write to create or overwrite a file");
    const same = await callTool(edit, { path: "n.ts", old_string: "a", new_string: "a" });
    assert.equal(same.content, "old_string and new_string are identical; nothing to change");
  });

  it("matches LF old_string in a CRLF file and keeps CRLF", async () => {
    ws.write({ "win.txt": "one\r\ntwo\r\nthree\r\n" });
    const result = await callTool(edit, {
      path: "win.txt",
      old_string: "one\ntwo",
      new_string: "1\n2",
    });
    assert.equal(result.isError, undefined, result.content);
    assert.equal(text("win.txt"), "1\r\n2\r\nthree\r\n");
  });

  it("refuses a file that is not valid UTF-8 and leaves its bytes as they were", async () => {
    const bytes = Buffer.from([0x68, 0x69, 0xff, 0xfe, 0xc3, 0x28, 0x0a, 0xed, 0xa0, 0x80, 0x0a]);
    ws.write({ "latin.txt": bytes });
    const result = await callTool(edit, { path: "latin.txt", old_string: "hi", new_string: "ho" });
    assert.deepEqual(result, {
      content:
        "latin.txt is not valid UTF-8, so edit left it unchanged (it would replace the invalid " +
        "bytes); convert it first (e.g. iconv in bash) or rewrite it whole with write",
      isError: true,
    });
    assert.deepEqual(readFileSync(join(ws.dir, "latin.txt")), bytes);
  });

  it("keeps a byte order mark and multi-byte text", async () => {
    ws.write({ "bom.txt": "\ufeffcafé = 1\n" });
    const result = await callTool(edit, { path: "bom.txt", old_string: "1", new_string: "2" });
    assert.equal(result.isError, undefined, result.content);
    assert.equal(text("bom.txt"), "\ufeffcafé = 2\n");
  });
});

describe("hard links", () => {
  it("write and edit refuse a file with a second name outside the workspace and leave both unchanged", async () => {
    const outside = join(ws.dir, "..", "outside.txt");
    writeFileSync(outside, "original\n");
    linkSync(outside, join(ws.dir, "linked.txt"));
    const edited = await callTool(createEditTool(context), {
      path: "linked.txt",
      old_string: "original",
      new_string: "changed",
    });
    assert.deepEqual(edited, {
      content:
        "linked.txt has 2 hard links, so one of its names may be outside the workspace; write and edit treat it as outside and leave it unchanged",
      isError: true,
    });
    const written = await callTool(createWriteTool(context), { path: "linked.txt", content: "x" });
    assert.match(written.content, /^linked.txt has 2 hard links/);
    assert.equal(readFileSync(outside, "utf8"), "original\n");
  });
});
