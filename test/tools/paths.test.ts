// Symlinks that lead out of the workspace, dangling ones included: write must not create the
// target, edit/read/ls must not reach it, whether the link is direct, a chain, relative, in a
// subdirectory or in the middle of the path; a dangling link inside the workspace still works.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import {
  createEditTool,
  createLsTool,
  createReadTool,
  createWriteTool,
} from "../../src/tools/builtin/index.ts";
import { callTool, createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-paths-");
after(() => ws.cleanup());
const outside = join(dirname(ws.dir), "outside");
mkdirSync(outside);
ws.write({ "sub/keep.txt": "kept\n" });
function link(name: string, target: string): void {
  mkdirSync(dirname(join(ws.dir, name)), { recursive: true });
  symlinkSync(target, join(ws.dir, name));
}
const refusal = (path: string): string =>
  `${path} is outside the workspace (${ws.dir}); tools may only use paths inside it`;

link("d", join(outside, "new1.txt"));
link("d2", "d3");
link("d3", join(outside, "new2.txt"));
link("src/d", join(outside, "new3.txt"));
link("rel", "../outside/new4.txt");
link("up", "sub/../../outside/new5.txt");
link("dirlink", join(outside, "newdir"));
link("loop1", "loop2");
link("loop2", "loop1");
link("ok", "inside-new.txt");

const context = ws.context();
const write = createWriteTool(context);
const edit = createEditTool(context);

describe("a dangling symlink leading out", () => {
  const cases: [string, string][] = [
    ["d", "new1.txt"],
    ["d2", "new2.txt"],
    ["d3", "new2.txt"],
    ["src/d", "new3.txt"],
    ["rel", "new4.txt"],
    ["up", "new5.txt"],
    ["dirlink/x.txt", "newdir"],
  ];

  for (const [path, target] of cases) {
    it(`edit ${path} is refused as outside, not as missing`, async () => {
      const result = await callTool(edit, { path, old_string: "a", new_string: "b" });
      assert.deepEqual(result, { content: refusal(path), isError: true });
    });

    it(`write ${path} is refused and creates nothing outside`, async () => {
      const result = await callTool(write, { path, content: "escaped\n" });
      assert.deepEqual(result, { content: refusal(path), isError: true });
      assert.equal(existsSync(join(outside, target)), false);
    });
  }

  it("read and ls refuse it too", async () => {
    const read = createReadTool(context);
    const ls = createLsTool(context);
    assert.deepEqual(await callTool(read, { path: "d2" }), {
      content: refusal("d2"),
      isError: true,
    });
    assert.deepEqual(await callTool(ls, { path: "dirlink" }), {
      content: refusal("dirlink"),
      isError: true,
    });
  });
});

describe("other symlinks", () => {
  it("a link to an existing directory outside is refused in the middle of a path", async () => {
    link("mid", outside);
    const result = await callTool(write, { path: "mid/new.txt", content: "x" });
    assert.deepEqual(result, { content: refusal("mid/new.txt"), isError: true });
    assert.equal(existsSync(join(outside, "new.txt")), false);
    const ls = await callTool(createLsTool(context), { path: "mid" });
    assert.deepEqual(ls, { content: refusal("mid"), isError: true });
  });

  it("a loop is refused with a message naming the path", async () => {
    const result = await callTool(write, { path: "loop1", content: "x" });
    assert.deepEqual(result, {
      content: "loop1 has too many levels of symbolic links (a loop?)",
      isError: true,
    });
  });

  it("a dangling link inside the workspace creates its target there", async () => {
    const result = await callTool(write, { path: "ok", content: "made\n" });
    assert.deepEqual(result, { content: "Created ok (1 line, 5 bytes)." });
    assert.equal(readFileSync(join(ws.dir, "inside-new.txt"), "utf8"), "made\n");
    const edited = await callTool(edit, { path: "ok", old_string: "made", new_string: "edited" });
    assert.equal(edited.isError, undefined, edited.content);
    assert.equal(readFileSync(join(ws.dir, "inside-new.txt"), "utf8"), "edited\n");
  });

  it("a link inside the workspace that stays inside reads normally", async () => {
    link("sub/back", "../sub/keep.txt");
    const result = await callTool(createReadTool(context), { path: "sub/back" });
    assert.equal(result.content, "     1\tkept\n");
  });
});
