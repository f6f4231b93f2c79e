// The read tool on real files: numbering and paging, long lines cut as they stream (a line of
// megabytes never becomes one string), each refusal (missing, directory, binary, outside the
// workspace, a symlink leading out); the spill directory is readable; secrets redacted.
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createBashTool, createReadTool } from "../../src/tools/builtin/index.ts";
import { READ_MAX_LINE_CHARS } from "../../src/tools/builtin/read.ts";
import { BoundedLines } from "../../src/tools/builtin/text-file.ts";
import { callTool, createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-read-");
after(() => ws.cleanup());
ws.write({
  "src/a.txt": "alpha\nbeta\ngamma\ndelta\n",
  "long.txt": `${"x".repeat(2500)}\nshort\n`,
  "blob.bin": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]),
  "empty.txt": "",
  "crlf.txt": "one\r\ntwo\r\n",
});

describe("read", () => {
  const read = createReadTool(ws.context());

  it("shows lines with numbers", async () => {
    const result = await callTool(read, { path: "src/a.txt" });
    assert.equal(result.content, "     1\talpha\n     2\tbeta\n     3\tgamma\n     4\tdelta\n");
    assert.equal(result.isError, undefined);
  });

  it("pages with offset and limit and says how to read on", async () => {
    const result = await callTool(read, { path: "src/a.txt", offset: 2, limit: 2 });
    assert.equal(
      result.content,
      "     2\tbeta\n     3\tgamma\n[lines 2-3 of 4; use offset=4 to read on]",
    );
  });

  it("refuses an offset past the end", async () => {
    const result = await callTool(read, { path: "src/a.txt", offset: 9 });
    assert.equal(result.content, "offset 9 is past the end of src/a.txt (4 lines)");
    assert.equal(result.isError, true);
  });

  it("cuts very long lines", async () => {
    const result = await callTool(read, { path: "long.txt" });
    assert.equal(result.content, `     1\t${"x".repeat(2000)}… [500 more chars]\n     2\tshort\n`);
  });

  it("drops carriage returns and reports an empty file", async () => {
    assert.equal(
      (await callTool(read, { path: "crlf.txt" })).content,
      "     1\tone\n     2\ttwo\n",
    );
    assert.equal((await callTool(read, { path: "empty.txt" })).content, "(empty.txt is empty)");
  });

  it("refuses missing files, directories and binary files with clear messages", async () => {
    const missing = await callTool(read, { path: "nope.txt" });
    assert.equal(
      missing.content,
      "File not found: nope.txt (use glob or ls to find the right path)",
    );
    assert.equal(missing.isError, true);
    const dir = await callTool(read, { path: "src" });
    assert.equal(dir.content, "src is a directory; use ls to list it");
    const binary = await callTool(read, { path: "blob.bin" });
    assert.equal(binary.content, "blob.bin is a binary file (7 bytes); read shows text files only");
    assert.equal(binary.isError, true);
  });

  it("refuses paths outside the workspace, symlinks leading out included", async () => {
    const outside = await callTool(read, { path: "../secret.txt" });
    assert.equal(outside.isError, true);
    assert.equal(
      outside.content,
      `../secret.txt is outside the workspace (${ws.dir}); tools may only use paths inside it`,
    );
    const absolute = await callTool(read, { path: "/etc/passwd" });
    assert.match(absolute.content, /^\/etc\/passwd is outside the workspace/);
    writeFileSync(join(ws.dir, "..", "secret.txt"), "top secret\n");
    symlinkSync(join(ws.dir, "..", "secret.txt"), join(ws.dir, "link.txt"));
    const link = await callTool(read, { path: "link.txt" });
    assert.match(link.content, /^link\.txt is outside the workspace/);
  });

  it("reads the session's spill files, by range", async () => {
    const context = ws.context({ output: { max_bytes: 300 } });
    const bash = await callTool(createBashTool(context), { command: "seq 1 5000" });
    assert.ok(bash.spillPath);
    const page = await callTool(createReadTool(context), {
      path: bash.spillPath,
      offset: 2500,
      limit: 2,
    });
    assert.equal(
      page.content,
      `  2500\t2500\n  2501\t2501\n[lines 2500-2501 of 5000; use offset=2502 to read on]`,
    );
  });

  it("redacts a secret in a file", async () => {
    const token = `ghp_${"a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"}`;
    ws.write({ "config/.env": `GITHUB_TOKEN=${token}\nNAME=demo\n` });
    const result = await callTool(read, { path: "config/.env" });
    assert.ok(!result.content.includes(token));
    assert.match(result.content, /REDACTED/);
    assert.match(result.content, /NAME=demo/);
  });

  it("bounds a huge page with a marker and a spill file", async () => {
    const context = ws.context({ output: { max_bytes: 1000 } });
    mkdirSync(join(ws.dir, "big"), { recursive: true });
    writeFileSync(
      join(ws.dir, "big", "huge.txt"),
      `${Array.from({ length: 3000 }, (_, i) => `line ${i}`).join("\n")}\n`,
    );
    const result = await callTool(createReadTool(context), { path: "big/huge.txt" });
    assert.equal(result.truncated, true);
    assert.match(result.content, /omitted; original output \d+ bytes, 2000 lines; full output in /);
    assert.match(result.content, /\[lines 1-2000 of 3000; use offset=2001 to read on\]$/);
    assert.ok(result.spillPath);
  });
});

// Before, readline joined a whole line into one string: a file of one line over V8's string
// limit (2^29 - 24 characters, about 512 MB) crashed Node with "Invalid string length". The
// tool's own bound is READ_MAX_LINE_CHARS; lines far longer than it show the bounded logic.
describe("read of over-long lines", () => {
  const read = createReadTool(ws.context());

  it("cuts a multi-megabyte line without a newline, counting what it left out", async () => {
    const size = 5 * 1024 * 1024;
    writeFileSync(join(ws.dir, "one-line.txt"), Buffer.alloc(size, "x"));
    const result = await callTool(read, { path: "one-line.txt" });
    const more = size - READ_MAX_LINE_CHARS;
    assert.equal(
      result.content,
      `     1\t${"x".repeat(READ_MAX_LINE_CHARS)}… [${more} more chars]\n`,
    );
  });

  it("goes on after a long line spanning many chunks, CRLF and multi-byte text included", async () => {
    const long = "€".repeat(300_000); // 3 bytes each: chunks end mid-character
    writeFileSync(join(ws.dir, "mixed.txt"), `${long}\r\nnext\r\nlast`);
    const result = await callTool(read, { path: "mixed.txt", offset: 2 });
    assert.equal(result.content, "     2\tnext\n     3\tlast\n");
    const first = await callTool(read, { path: "mixed.txt", limit: 1 });
    assert.equal(
      first.content,
      `     1\t${"€".repeat(2000)}… [298000 more chars]\n[lines 1-1 of 3; use offset=2 to read on]`,
    );
  });

  it("never holds more than the line limit of a line, however long it grows", () => {
    const lines: string[] = [];
    const splitter = new BoundedLines(10, (line) => lines.push(line));
    const chunk = "y".repeat(64 * 1024);
    let most = 0;
    for (let index = 0; index < 1000; index++) {
      splitter.push(chunk);
      most = Math.max(most, splitter.held);
    }
    splitter.end();
    assert.equal(most, 10);
    assert.deepEqual(lines, [`yyyyyyyyyy… [${64 * 1024 * 1000 - 10} more chars]`]);
  });

  it("splits lines as readline did: CRLF across chunks, a lone CR, no empty last line", () => {
    const lines: string[] = [];
    const splitter = new BoundedLines(100, (line) => lines.push(line));
    for (const chunk of ["a\r", "\nb\rc", "\n", "\n", "d\n"]) splitter.push(chunk);
    splitter.end();
    assert.deepEqual(lines, ["a", "b", "c", "", "d"]);
  });
});
