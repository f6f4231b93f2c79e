// The ls and todo_write tools: a directory listing with markers, its refusals and its bound;
// the todo list's short summary, and what the loop records as `todo/update`.
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createLsTool, createTodoWriteTool } from "../../src/tools/builtin/index.ts";
import { callTool, createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-ls-");
after(() => ws.cleanup());
ws.write({ "b.txt": "", "a/x.ts": "", ".hidden": "", "ignored.log": "" });
symlinkSync(join(ws.dir, "b.txt"), join(ws.dir, "link"));
mkdirSync(join(ws.dir, "empty"));

describe("ls", () => {
  const ls = createLsTool(ws.context());

  it("lists entries sorted, directories with / and symlinks with @", async () => {
    const result = await callTool(ls, {});
    assert.equal(result.content, ".hidden\na/\nb.txt\nempty/\nignored.log\nlink@\n");
    assert.equal((await callTool(ls, { path: "a" })).content, "x.ts\n");
  });

  it("says a directory is empty and refuses files, missing and outside paths", async () => {
    assert.equal((await callTool(ls, { path: "empty" })).content, "(empty is empty)");
    assert.deepEqual(await callTool(ls, { path: "b.txt" }), {
      content: "b.txt is not a directory",
      isError: true,
    });
    assert.deepEqual(await callTool(ls, { path: "zzz" }), {
      content: "Directory not found: zzz",
      isError: true,
    });
    assert.match((await callTool(ls, { path: "/" })).content, /^\/ is outside the workspace/);
  });

  it("bounds a huge directory with a marker", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 2000; i++) files[`huge/file-${String(i).padStart(4, "0")}.txt`] = "";
    ws.write(files);
    const small = createLsTool(ws.context({ output: { max_bytes: 500 } }));
    const result = await callTool(small, { path: "huge" });
    assert.equal(result.truncated, true);
    assert.match(result.content, /^file-0000\.txt\n/);
    assert.match(result.content, /omitted; original output \d+ bytes, 2000 lines/);
  });
});

describe("todo_write", () => {
  const todo = createTodoWriteTool();
  const todos = [
    { content: "read the code", status: "completed" },
    { content: "fix the bug", status: "in_progress" },
    { content: "run the tests", status: "pending" },
  ];

  it("answers with counts and the item in progress", async () => {
    const result = await callTool(todo, { todos });
    assert.equal(
      result.content,
      "Todo list updated: 3 items (1 completed, 1 in progress, 1 pending). Now: fix the bug",
    );
    const done = await callTool(todo, { todos: [{ content: "ship", status: "completed" }] });
    assert.equal(
      done.content,
      "Todo list updated: 1 item (1 completed, 0 in progress, 0 pending).",
    );
    assert.equal((await callTool(todo, { todos: [] })).content, "Todo list cleared.");
  });

  it("rejects an unknown status through the schema", async () => {
    const result = await callTool(todo, { todos: [{ content: "x", status: "done" }] });
    assert.equal(result.isError, true);
    assert.match(result.content, /todos\.0\.status/);
  });

  it("hands the loop the list to record as todo/update on its result", async () => {
    const result = await callTool(todo, { todos });
    assert.deepEqual(result.todos, todos);
  });
});
