// Names and text the model gave, or file names on disk, never reach a result as raw control
// characters: write's report, an outside-path refusal, todo_write's answer (also bounded), and
// ls and glob listings show them as visible escapes (`\x1b`) the model can copy back.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  createGlobTool,
  createLsTool,
  createReadTool,
  createTodoWriteTool,
  createWriteTool,
} from "../../src/tools/builtin/index.ts";
import { callTool, createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-escapes-");
after(() => ws.cleanup());
const context = ws.context();
/** Any C0 control but newline, DEL or C1 control. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;

describe("results that echo a name", () => {
  it("write reports a name with controls as escapes, and creates the file by its real name", async () => {
    const result = await callTool(createWriteTool(context), {
      path: "a\u001b[2J.txt",
      content: "x\n",
    });
    assert.deepEqual(result, { content: "Created a\\x1b[2J.txt (1 line, 2 bytes)." });
    assert.ok(existsSync(join(ws.dir, "a\u001b[2J.txt")));
  });

  it("an error message shows them as escapes too", async () => {
    const read = createReadTool(context);
    assert.deepEqual(await callTool(read, { path: "gone\u0007.txt" }), {
      content: "File not found: gone\\x07.txt (use glob or ls to find the right path)",
      isError: true,
    });
    const outside = await callTool(read, { path: "/tmp/\u001b]0;T\u0007" });
    assert.match(outside.content, /^\/tmp\/\\x1b\]0;T\\x07 is outside the workspace/);
  });

  it("todo_write answers with a bounded summary, without raw controls", async () => {
    const item = `fix \u001b]0;T\u0007 ${"z".repeat(100_000)}`;
    const result = await callTool(createTodoWriteTool(), {
      todos: [
        { content: item, status: "in_progress" },
        { content: "z".repeat(100_000), status: "pending" },
      ],
    });
    assert.ok(result.content.length < 300, `${result.content.length} chars`);
    assert.doesNotMatch(result.content, CONTROL);
    assert.match(
      result.content,
      /^Todo list updated: 2 items \(0 completed, 1 in progress, 1 pending\)\. Now: fix \\x1b\]0;T\\x07 z*… \[\d+ more chars\]$/,
    );
  });
});

describe("listings of names with control characters", () => {
  ws.write({ "names/n\u001b[2Jame\u0007.txt": "", "names/tab\there": "", "names/plain.txt": "" });

  it("ls shows them as escapes, one entry per line", async () => {
    const result = await callTool(createLsTool(context), { path: "names" });
    assert.equal(result.content, "n\\x1b[2Jame\\x07.txt\nplain.txt\ntab\\x09here\n");
  });

  it("glob shows them as escapes", async () => {
    const result = await callTool(createGlobTool(context), { pattern: "names/*" });
    assert.equal(
      result.content,
      "names/n\\x1b[2Jame\\x07.txt\nnames/plain.txt\nnames/tab\\x09here\n",
    );
    const none = await callTool(createGlobTool(context), { pattern: "*.\u001b[2J" });
    assert.equal(none.content, "No files match *.\\x1b[2J in ..");
  });

  it("the name as shown, unescaped by the model, opens the file", async () => {
    const read = await callTool(createReadTool(context), { path: "names/n\u001b[2Jame\u0007.txt" });
    assert.equal(read.content, "(names/n\\x1b[2Jame\\x07.txt is empty)");
  });
});
