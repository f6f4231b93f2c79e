// The file tools over a surface's FileAccess (an editor's buffers) with a fake access: read
// pages the surface's text, edit edits it and write writes through it, after the same checks
// as on disk (outside the workspace, a directory, a read rule, a second hard link: the access
// is never called);
// a NUL in the text is refused as binary; a failing access is one error line; spill files
// are always read from the disk; an access that only reads leaves writing to the disk.
import assert from "node:assert/strict";
import { existsSync, linkSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { BuiltinToolContext, FileAccess } from "../../src/tools/builtin/index.ts";
import { createEditTool, createReadTool, createWriteTool } from "../../src/tools/builtin/index.ts";
import { callTool, createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-files-");
after(() => ws.cleanup());

/** A fake editor: buffers by absolute path, every call recorded. */
function editor(buffers: Record<string, string> = {}) {
  const calls: string[] = [];
  const files: Required<FileAccess> = {
    async readText(path) {
      calls.push(`read ${path}`);
      const text = buffers[path];
      if (text === undefined) throw new Error("no buffer\nsecond line");
      return text;
    },
    async writeText(path, content) {
      calls.push(`write ${path}`);
      buffers[path] = content;
    },
  };
  return { files, calls, buffers };
}

function withFiles(files: FileAccess): BuiltinToolContext {
  return { ...ws.context(), files };
}

describe("file tools through a surface's file access", () => {
  it("read pages the surface's text with line numbers", async () => {
    ws.write({ "a.ts": "disk\n" });
    const fake = editor({ [join(ws.dir, "a.ts")]: "one\ntwo\nthree\n" });
    const read = createReadTool(withFiles(fake.files));
    const result = await callTool(read, { path: "a.ts", offset: 2, limit: 1 });
    assert.match(result.content, /^\s+2\ttwo\n\[lines 2-2 of 3; use offset=3 to read on\]$/);
    assert.deepEqual(fake.calls, [`read ${join(ws.dir, "a.ts")}`]);
  });

  it("refusals come before the access: outside the workspace, a directory, a missing file", async () => {
    ws.write({ "dir/x": "" });
    const fake = editor();
    const read = createReadTool(withFiles(fake.files));
    assert.match((await callTool(read, { path: "../x" })).content, /outside the workspace/);
    assert.match((await callTool(read, { path: "dir" })).content, /is a directory/);
    assert.match((await callTool(read, { path: "gone.ts" })).content, /File not found/);
    assert.deepEqual(fake.calls, []);
  });

  it("a read rule keeps the access from being asked", async () => {
    ws.write({ "secret.txt": "x" });
    const fake = editor({ [join(ws.dir, "secret.txt")]: "buffer" });
    const readGate = {
      active: true,
      blocks: (_tool: string, path: string) => path.endsWith("secret.txt"),
    };
    const read = createReadTool({ ...ws.context({ readGate }), files: fake.files });
    const result = await callTool(read, { path: "secret.txt" });
    assert.equal(result.isError, true);
    assert.match(result.content, /a permission rule covers read reading it/);
    assert.deepEqual(fake.calls, []);
  });

  it("a NUL in the surface's text is refused as binary; a failing access is one line", async () => {
    ws.write({ "bin.dat": "x", "broken.ts": "x" });
    const fake = editor({ [join(ws.dir, "bin.dat")]: "a\0b" });
    const read = createReadTool(withFiles(fake.files));
    assert.match((await callTool(read, { path: "bin.dat" })).content, /is a binary file/);
    const broken = await callTool(read, { path: "broken.ts" });
    assert.deepEqual(broken, {
      content: "Cannot read broken.ts through the editor: no buffer",
      isError: true,
    });
  });

  it("edit changes the surface's text and writes it back through it", async () => {
    ws.write({ "e.ts": "let a = 0;\n" });
    const path = join(ws.dir, "e.ts");
    const fake = editor({ [path]: "let a = 1;\n" });
    const edit = createEditTool(withFiles(fake.files));
    const result = await callTool(edit, { path: "e.ts", old_string: "a = 1", new_string: "a = 2" });
    assert.equal(result.isError, undefined, result.content);
    assert.equal(fake.buffers[path], "let a = 2;\n");
    assert.equal(readFileSync(path, "utf8"), "let a = 0;\n");
  });

  it("a file with a second hard link is not written through the access", async () => {
    ws.write({ "linked.txt": "x" });
    linkSync(join(ws.dir, "linked.txt"), join(ws.dir, "other-name.txt"));
    const fake = editor({ [join(ws.dir, "linked.txt")]: "x" });
    const write = createWriteTool(withFiles(fake.files));
    const result = await callTool(write, { path: "linked.txt", content: "changed" });
    assert.equal(result.isError, true);
    assert.match(result.content, /has 2 hard links/);
    assert.deepEqual(fake.calls, []);
  });

  it("write goes through the access; an access that only reads leaves writing to the disk", async () => {
    const fake = editor();
    const write = createWriteTool(withFiles(fake.files));
    await callTool(write, { path: "sub/new.md", content: "# x\n" });
    assert.equal(fake.buffers[join(ws.dir, "sub/new.md")], "# x\n");
    assert.equal(existsSync(join(ws.dir, "sub/new.md")), false);
    const readOnly = createWriteTool(withFiles({ readText: fake.files.readText }));
    await callTool(readOnly, { path: "disk.md", content: "on disk\n" });
    assert.equal(readFileSync(join(ws.dir, "disk.md"), "utf8"), "on disk\n");
  });
});
