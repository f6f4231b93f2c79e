// The filesystem checks behind `system_prompt_file` and `session_dir`: what a prompt file may be
// (a readable regular file of at most 1 MiB, never a device, FIFO or directory), when a
// sessions directory cannot work, and the agent reading the prompt file through the same check.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { buildSystemPrompt } from "../../src/agent/system-prompt.ts";
import {
  checkPromptFile,
  MAX_PROMPT_FILE_BYTES,
  readPromptFile,
  sessionDirProblem,
} from "../../src/config/path-checks.ts";
import { ConfigError } from "../../src/errors.ts";
import type { TempLayout } from "./support/temp-config.ts";
import { createLayout } from "./support/temp-config.ts";

let layout: TempLayout;
beforeEach(() => {
  layout = createLayout();
});
afterEach(() => layout.cleanup());

function problemOf(path: string): string {
  const read = readPromptFile(path);
  assert.equal(read.ok, false, `${path} was accepted`);
  return read.ok ? "" : read.problem;
}

/** A FIFO with no writer: opening it for reading would block forever. */
function makeFifo(): string | undefined {
  const path = join(layout.root, "prompt.fifo");
  return spawnSync("mkfifo", [path]).status === 0 ? path : undefined;
}

describe("a system prompt file", () => {
  it("is read when it is a regular file", () => {
    const path = join(layout.root, "prompt.md");
    writeFileSync(path, "You are a careful reviewer.\n");
    assert.deepEqual(readPromptFile(path), { ok: true, text: "You are a careful reviewer.\n" });
    assert.equal(checkPromptFile(path), undefined);
  });

  it("may be exactly 1 MiB, and not one byte more", () => {
    const path = join(layout.root, "prompt.md");
    writeFileSync(path, "x".repeat(MAX_PROMPT_FILE_BYTES));
    const read = readPromptFile(path);
    assert.equal(read.ok && read.text.length, MAX_PROMPT_FILE_BYTES);
    writeFileSync(path, "x".repeat(MAX_PROMPT_FILE_BYTES + 1));
    assert.equal(problemOf(path), `${path} is larger than 1 MiB (1048577 bytes)`);
    assert.equal(checkPromptFile(path), `${path} is larger than 1 MiB (1048577 bytes)`);
  });

  it("is refused when it is a directory", () => {
    assert.equal(
      problemOf(layout.home),
      `${layout.home} is not a regular file (it is a directory)`,
    );
  });

  it("is refused at once when it is an endless device", { timeout: 5000 }, (t) => {
    if (!existsSync("/dev/urandom")) return t.skip("no /dev/urandom here");
    assert.equal(
      problemOf("/dev/urandom"),
      "/dev/urandom is not a regular file (it is a character device)",
    );
  });

  it("is refused, without blocking, when it is a FIFO", { timeout: 5000 }, (t) => {
    const fifo = makeFifo();
    if (!fifo) return t.skip("mkfifo is not available");
    assert.equal(problemOf(fifo), `${fifo} is not a regular file (it is a FIFO)`);
  });

  it("is refused when it does not exist, or its parent is a file", () => {
    const missing = join(layout.root, "missing.md");
    assert.equal(problemOf(missing), `${missing} does not exist`);
    const file = join(layout.root, "file");
    writeFileSync(file, "");
    assert.equal(problemOf(join(file, "prompt.md")), `${join(file, "prompt.md")} does not exist`);
  });
});

describe("the agent's system prompt", () => {
  it("is the prompt file's text when it passes the check", () => {
    const path = join(layout.root, "prompt.md");
    writeFileSync(path, "  Only answer in French.  \n");
    const prompt = buildSystemPrompt({ cwd: layout.project, home: layout.home, promptFile: path });
    assert.match(prompt, /^Only answer in French\./);
  });

  it("fails with one ConfigError line naming the key and path when it does not", {
    timeout: 5000,
  }, (t) => {
    const fifo = makeFifo();
    if (!fifo) return t.skip("mkfifo is not available");
    const build = () =>
      buildSystemPrompt({ cwd: layout.project, home: layout.home, promptFile: fifo });
    assert.throws(build, (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.exitCode, 2);
      assert.equal(error.key, "system_prompt_file");
      assert.equal(
        error.message,
        `key "system_prompt_file" (--system-prompt-file): ${fifo} is not a regular file (it is a FIFO)`,
      );
      return true;
    });
  });
});

describe("a sessions directory", () => {
  it("is fine when it exists, or can be created under a directory", () => {
    assert.equal(sessionDirProblem(layout.home), undefined);
    assert.equal(sessionDirProblem(join(layout.home, "sessions", "deep")), undefined);
  });

  it("is refused when it is a file", () => {
    const file = join(layout.root, "passwd");
    writeFileSync(file, "root:x:0:0\n");
    assert.equal(sessionDirProblem(file), `${file} is not a directory`);
  });

  it("is refused when it would have to be created under a file", () => {
    const file = join(layout.root, "passwd");
    writeFileSync(file, "");
    const dir = join(file, "2026", "11");
    assert.equal(sessionDirProblem(dir), `${dir} cannot be created: ${file} is not a directory`);
    mkdirSync(join(layout.root, "real"));
    assert.equal(sessionDirProblem(join(layout.root, "real", "x", "y")), undefined);
  });
});
