// A symlink swapped between the path check and the open, raced for real: a child process flips
// a link in a loop (atomically, by rename) between a folder inside the workspace and one outside
// (or a secret one a read rule denies) while write, edit and read run hundreds of times through
// it. Not one write may land outside, not one outside file may change, not one read may return
// the denied file, not one search or listing (ripgrep's too) may name or quote a file outside
// or a denied one: each call either works inside or is refused.
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { PermissionContext } from "../../src/permissions/index.ts";
import { compilePolicy, readGateFor } from "../../src/permissions/index.ts";
import {
  createEditTool,
  createGlobTool,
  createGrepTool,
  createLsTool,
  createReadTool,
  createWriteTool,
} from "../../src/tools/builtin/index.ts";
import { skipWithout } from "../support/system-tools.ts";
import { callTool, createWorkspace } from "./support/workspace.ts";

// The counts are what the file costs (the flipper keeps a core busy for the whole race). On the
// code before each fix, write, read and ls leaked in about 1 of 18 to 1 of 30 rounds (a fix
// undone passes 200 rounds with odds under 1 in 800), the JS grep in 1 of 5, glob and
// ripgrep's file list in 1 of 5 to 1 of 10; ripgrep's own walk in 0 to 2 of 120 (weak, as before).
const ROUNDS = 200;
/** Each grep starts a worker thread or ripgrep: fewer rounds, with each state held longer. */
const JS_GREP_ROUNDS = 40;
const RG_ROUNDS = 120;
const GLOB_ROUNDS = 60;
const ws = createWorkspace("cw-race-");
const outside = join(ws.dir, "..", "outside");
mkdirSync(outside);
mkdirSync(join(ws.dir, "inside"));
const children: ChildProcess[] = [];
after(async () => {
  for (const child of children) child.kill("SIGKILL");
  await ws.cleanup();
});

/**
 * Starts a child that replaces `link` by a symlink to each of `targets` in turn, forever, by
 * renaming a fresh link over it (so `link` always exists); resolves once it has flipped.
 */
async function flipper(link: string, targets: readonly string[]): Promise<ChildProcess> {
  const script = `
    const fs = require("node:fs");
    const [link, ...targets] = process.argv.slice(1);
    const temp = link + ".tmp";
    let i = 0;
    for (;;) {
      try { fs.unlinkSync(temp); } catch {}
      fs.symlinkSync(targets[i++ % targets.length], temp);
      fs.renameSync(temp, link);
      if (i === 2) process.stdout.write("flipping\\n");
    }`;
  const child = spawn(process.execPath, ["-e", script, link, ...targets], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the flipper exited (${code})`)));
  });
  return child;
}

/**
 * Starts a child that turns the folder `name` in `parent` into a symlink to `target` and back,
 * holding each state about a millisecond (asleep, not spinning), forever; resolves once it has
 * swapped twice.
 */
async function swapper(parent: string, name: string, target: string): Promise<ChildProcess> {
  const script = `
    const fs = require("node:fs");
    const [parent, name, target] = process.argv.slice(1);
    process.chdir(parent);
    let i = 0;
    const cell = new Int32Array(new SharedArrayBuffer(4));
    const hold = () => Atomics.wait(cell, 0, 0, 1);
    for (;;) {
      hold();
      fs.renameSync(name, name + ".dir");
      fs.symlinkSync(target, name);
      hold();
      fs.unlinkSync(name);
      fs.renameSync(name + ".dir", name);
      if (++i === 2) process.stdout.write("swapping\\n");
    }`;
  const child = spawn(process.execPath, ["-e", script, parent, name, target], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the swapper exited (${code})`)));
  });
  return child;
}

function stop(child: ChildProcess): void {
  child.kill("SIGKILL");
}

describe("a symlink swapped between the check and the open", () => {
  it("write: of 200 writes through a flipping folder link, none lands outside", async () => {
    const write = createWriteTool(ws.context());
    const child = await flipper(join(ws.dir, "d"), ["inside", outside]);
    let written = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const result = await callTool(write, { path: `d/f${round}.txt`, content: "pwned\n" });
      if (!result.isError) written++;
    }
    stop(child);
    assert.deepEqual(readdirSync(outside), [], "nothing was written outside the workspace");
    assert.ok(written > 0, "some writes went through, inside");
  });

  it("write: of 200 writes through a flipping file link, none reaches the outside file", async () => {
    const write = createWriteTool(ws.context());
    const victim = join(outside, "victim.txt");
    writeFileSync(victim, "original\n");
    writeFileSync(join(ws.dir, "inside", "mine.txt"), "mine\n");
    const child = await flipper(join(ws.dir, "f"), ["inside/mine.txt", victim]);
    for (let round = 0; round < ROUNDS; round++) {
      await callTool(write, { path: "f", content: `pwned ${round}\n` });
    }
    stop(child);
    assert.equal(readFileSync(victim, "utf8"), "original\n");
  });

  it("edit: of 200 edits through a flipping folder link, the outside file never changes", async () => {
    const edit = createEditTool(ws.context());
    mkdirSync(join(outside, "e"));
    mkdirSync(join(ws.dir, "inside", "e"));
    writeFileSync(join(outside, "e", "conf.txt"), "safe = true\n");
    const child = await flipper(join(ws.dir, "e"), ["inside/e", join(outside, "e")]);
    for (let round = 0; round < ROUNDS; round++) {
      writeFileSync(join(ws.dir, "inside", "e", "conf.txt"), "safe = true\n");
      await callTool(edit, { path: "e/conf.txt", old_string: "true", new_string: "false" });
    }
    stop(child);
    assert.equal(readFileSync(join(outside, "e", "conf.txt"), "utf8"), "safe = true\n");
  });

  it("read under a deny rule: of 200 reads through a link flipping to the denied folder, none returns it", async () => {
    const policy = compilePolicy({
      mode: "default",
      allow: [],
      ask: [],
      deny: [{ text: "read(secret/**)", source: "flag" }],
    });
    const ctx: PermissionContext = { workspaceRoot: ws.dir, cwd: ws.dir, home: "/nonexistent" };
    const read = createReadTool(ws.context({ readGate: readGateFor(policy, ctx) }));
    mkdirSync(join(ws.dir, "secret"));
    mkdirSync(join(ws.dir, "public"));
    writeFileSync(join(ws.dir, "secret", "key.txt"), "SECRET-VALUE\n");
    writeFileSync(join(ws.dir, "public", "key.txt"), "public value\n");
    const child = await flipper(join(ws.dir, "r"), ["public", "secret"]);
    let leaked = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const result = await callTool(read, { path: "r/key.txt" });
      if (result.content.includes("SECRET-VALUE")) leaked++;
    }
    stop(child);
    assert.equal(leaked, 0, "no read returned the denied file");
  });

  it("ls under a deny rule: of 200 listings through a link flipping to the denied folder, none names its files", async () => {
    const policy = compilePolicy({
      mode: "default",
      allow: [],
      ask: [],
      deny: [{ text: "read(hidden/**)", source: "flag" }],
    });
    const ctx: PermissionContext = { workspaceRoot: ws.dir, cwd: ws.dir, home: "/nonexistent" };
    const ls = createLsTool(ws.context({ readGate: readGateFor(policy, ctx) }));
    mkdirSync(join(ws.dir, "hidden"));
    mkdirSync(join(ws.dir, "shown"));
    writeFileSync(join(ws.dir, "hidden", "layoffs-2027.txt"), "");
    writeFileSync(join(ws.dir, "shown", "readme.txt"), "");
    const child = await flipper(join(ws.dir, "l"), ["shown", "hidden"]);
    let leaked = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const result = await callTool(ls, { path: "l" });
      if (result.content.includes("layoffs")) leaked++;
    }
    stop(child);
    assert.equal(leaked, 0, "no listing named a file of the denied folder");
  });

  it("grep (JS backend) under a deny rule: a walked folder swapped for a link to the denied one is never searched", async () => {
    const policy = compilePolicy({
      mode: "default",
      allow: [],
      ask: [],
      deny: [{ text: "read(g/vault/**)", source: "flag" }],
    });
    const ctx: PermissionContext = { workspaceRoot: ws.dir, cwd: ws.dir, home: "/nonexistent" };
    const context = ws.context({ readGate: readGateFor(policy, ctx) });
    const grep = createGrepTool(context, { backend: "js" });
    mkdirSync(join(ws.dir, "g", "vault"), { recursive: true });
    mkdirSync(join(ws.dir, "g", "pub"));
    writeFileSync(join(ws.dir, "g", "vault", "key.txt"), "marker from the vault\n");
    writeFileSync(join(ws.dir, "g", "pub", "key.txt"), "marker in public\n");
    const child = await swapper(join(ws.dir, "g"), "pub", "vault");
    let leaked = 0;
    for (let round = 0; round < JS_GREP_ROUNDS; round++) {
      const result = await callTool(grep, { pattern: "marker", path: "g" });
      if (result.content.includes("from the vault")) leaked++;
    }
    stop(child);
    assert.equal(leaked, 0, "no search returned the denied file");
  });

  it("grep (ripgrep) under a deny rule: a walked folder swapped for a link to the denied one is never searched", {
    skip: skipWithout("rg"),
  }, async () => {
    const policy = compilePolicy({
      mode: "default",
      allow: [],
      ask: [],
      deny: [{ text: "read(h/vault/**)", source: "flag" }],
    });
    const ctx: PermissionContext = { workspaceRoot: ws.dir, cwd: ws.dir, home: "/nonexistent" };
    const grep = createGrepTool(ws.context({ readGate: readGateFor(policy, ctx) }), {
      backend: "rg",
    });
    mkdirSync(join(ws.dir, "h", "vault"), { recursive: true });
    mkdirSync(join(ws.dir, "h", "pub"));
    writeFileSync(join(ws.dir, "h", "vault", "key.txt"), "marker from the vault\n");
    writeFileSync(join(ws.dir, "h", "pub", "key.txt"), "marker in public\n");
    const child = await swapper(join(ws.dir, "h"), "pub", "vault");
    let leaked = 0;
    let found = 0;
    for (let round = 0; round < RG_ROUNDS; round++) {
      const result = await callTool(grep, { pattern: "marker", path: "h" });
      if (result.content.includes("from the vault")) leaked++;
      if (result.content.includes("marker in public")) found++;
    }
    stop(child);
    assert.equal(leaked, 0, "no search returned the denied file");
    assert.ok(found > 0, "searches found the public file");
  });

  it("grep (ripgrep) and glob: a folder swapped for a link out of the workspace leaks no name or line from outside", {
    skip: skipWithout("rg"),
  }, async () => {
    const grep = createGrepTool(ws.context(), { backend: "rg" });
    const glob = createGlobTool(ws.context());
    mkdirSync(join(outside, "o"));
    writeFileSync(join(outside, "o", "payroll-2027.txt"), "marker from outside\n");
    mkdirSync(join(ws.dir, "k", "o"), { recursive: true });
    writeFileSync(join(ws.dir, "k", "o", "notes.txt"), "marker inside\n");
    const child = await swapper(join(ws.dir, "k"), "o", join(outside, "o"));
    const leaks: string[] = [];
    for (let round = 0; round < GLOB_ROUNDS; round++) {
      for (const [tool, args] of [
        [grep, { pattern: "marker", path: "k" }],
        [grep, { pattern: "marker", path: "k", files_only: true }],
        [glob, { pattern: "**/*.txt", path: "k" }],
      ] as const) {
        const result = await callTool(tool, args);
        if (/from outside|payroll/.test(result.content)) leaks.push(result.content);
      }
    }
    stop(child);
    assert.deepEqual(leaks, [], "no result named or quoted a file outside the workspace");
  });
});
