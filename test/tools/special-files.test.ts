// Files that are not regular files: a FIFO (mkfifo) or a socket would block read, write and edit
// forever, so each is refused before it is opened, with a one-line error naming what it is. A
// watchdog unblocks the FIFO after a few seconds, so a regression fails instead of hanging.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync, readFileSync, symlinkSync } from "node:fs";
import type { Server } from "node:net";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createEditTool, createReadTool, createWriteTool } from "../../src/tools/builtin/index.ts";
import { callTool, createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-special-");
const fifo = join(ws.dir, "f");
execFileSync("mkfifo", [fifo]);
symlinkSync("f", join(ws.dir, "to-fifo"));
ws.write({ "dir/a.txt": "a\n" });
let server: Server;
before(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(join(ws.dir, "sock"), resolve));
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await ws.cleanup();
});

/** Opens and closes both ends of the FIFO once, which ends any open or read blocked on it. */
function watchdog(): NodeJS.Timeout {
  return setTimeout(() => closeSync(openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK)), 3000);
}

/** Calls the tool with the watchdog armed. */
async function call(tool: Parameters<typeof callTool>[0], args: Record<string, unknown>) {
  const timer = watchdog();
  try {
    return await callTool(tool, args);
  } finally {
    clearTimeout(timer);
  }
}

const context = ws.context();
const fifoRefusal = (path: string) => ({
  content: `${path} is a FIFO, not a regular file`,
  isError: true,
});

describe("a FIFO", () => {
  it("read refuses it, directly and through a symlink", async () => {
    const read = createReadTool(context);
    assert.deepEqual(await call(read, { path: "f" }), fifoRefusal("f"));
    assert.deepEqual(await call(read, { path: "to-fifo" }), fifoRefusal("to-fifo"));
  });

  it("write refuses it and leaves it a FIFO", async () => {
    const result = await call(createWriteTool(context), { path: "f", content: "x" });
    assert.deepEqual(result, fifoRefusal("f"));
    assert.equal(execFileSync("stat", ["-c", "%F", fifo], { encoding: "utf8" }).trim(), "fifo");
  });

  it("edit refuses it", async () => {
    const result = await call(createEditTool(context), {
      path: "f",
      old_string: "a",
      new_string: "b",
    });
    assert.deepEqual(result, fifoRefusal("f"));
  });
});

describe("other files that are not regular", () => {
  it("read, write and edit refuse a socket", async () => {
    const refusal = { content: "sock is a socket, not a regular file", isError: true };
    assert.deepEqual(await callTool(createReadTool(context), { path: "sock" }), refusal);
    const write = await callTool(createWriteTool(context), { path: "sock", content: "x" });
    assert.deepEqual(write, refusal);
    const edit = await callTool(createEditTool(context), {
      path: "sock",
      old_string: "a",
      new_string: "b",
    });
    assert.deepEqual(edit, refusal);
  });

  it("a directory where a file is expected is refused with a pointer", async () => {
    assert.deepEqual(await callTool(createReadTool(context), { path: "dir" }), {
      content: "dir is a directory; use ls to list it",
      isError: true,
    });
    const edit = await callTool(createEditTool(context), {
      path: "dir",
      old_string: "a",
      new_string: "b",
    });
    assert.deepEqual(edit, { content: "dir is a directory", isError: true });
    const write = await callTool(createWriteTool(context), { path: "dir", content: "x" });
    assert.deepEqual(write, { content: "dir is a directory", isError: true });
    assert.equal(readFileSync(join(ws.dir, "dir/a.txt"), "utf8"), "a\n");
  });

  it("a path through a regular file is an error result, not a crash", async () => {
    const refusal = {
      content: "dir/a.txt/b: a part of the path is a file, not a directory",
      isError: true,
    };
    const write = await callTool(createWriteTool(context), { path: "dir/a.txt/b", content: "x" });
    assert.deepEqual(write, refusal);
    assert.deepEqual(await callTool(createReadTool(context), { path: "dir/a.txt/b" }), refusal);
  });
});
