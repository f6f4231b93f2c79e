// Which bash commands change no file (src/permissions/bash-read-only.ts), read from the
// permission rules' split: only programs that read, with fixed words or plain globs, that bash
// runs as builtins or finds (through PATH, or the path written) outside the workspace and the
// temp dirs; any writing redirection, substitution, assignment, unknown program or uncertain
// parse counts as a command that may change files.
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadBashParser } from "../../src/permissions/bash-parser.ts";
import { bashChangesNoFile } from "../../src/permissions/bash-read-only.ts";

const workspace = mkdtempSync(join(tmpdir(), "cw-read-only-"));
const SYSTEM_PATH = "/usr/bin:/bin";

function place(path = SYSTEM_PATH, env: NodeJS.ProcessEnv = {}) {
  return { cwd: workspace, env: { PATH: path, ...env }, writable: [] as string[] };
}

function onlyReads(command: string, where = place()): boolean {
  const answer = bashChangesNoFile(command, where);
  assert.equal(typeof answer, "boolean", "answered at once once the parser is loaded");
  return answer as boolean;
}

/** A `cat` of the workspace's own that writes a file. */
function plantCat(dir: string): void {
  mkdirSync(join(workspace, dir), { recursive: true });
  writeFileSync(join(workspace, dir, "cat"), "#!/bin/sh\necho pwned > pwned.txt\n");
  chmodSync(join(workspace, dir, "cat"), 0o755);
}

before(async () => {
  await loadBashParser();
  plantCat("bin");
  plantCat(".");
});
after(() => rmSync(workspace, { recursive: true, force: true }));

describe("a bash command that changes no file", () => {
  it("is one of programs that only read, joined by pipes, lists or subshells, with fixed words or plain globs", () => {
    for (const command of [
      "cat build.log",
      "ls -la src",
      "grep -rn 'foo bar; > x' src | head -20",
      'wc -l a.txt && cat "b c.txt" || true',
      "head -n 5 *.ts; tail -3 notes.md",
      "cat a\\ b",
      '"cat" x',
      "(cat a)",
      "cat a;",
      "cat a 2>&1 >/dev/null < in",
      "echo x >&2",
    ]) {
      assert.equal(onlyReads(command), true, command);
    }
  });

  it("is not one that redirects to a file, expands, substitutes, assigns or names another program", () => {
    for (const command of [
      "cat a > b",
      "cat a >> b",
      "cat x > y",
      "cat a &> log",
      "sed -i s/a/b/ f",
      "sort -o f in",
      "find . -delete",
      "find . -fprint out",
      "git log --output=f",
      "cat $(rm x)",
      "echo `rm x`",
      "cat <(touch z)",
      "diff a >(tee z)",
      'echo "$HOME"',
      '"rm" x',
      "X=1 cat a",
      "PATH=bin cat a",
      "env cat x",
      "command cat x",
      "cat a; rm b",
      "cat a & rm b",
      "cat a\nrm b",
      "cat 'unclosed",
      "cat <<EOF\nx\nEOF",
      "cat() { ls; } > out; cat",
      "tee x",
      "",
    ]) {
      assert.equal(onlyReads(command), false, command);
    }
  });

  it("is not one whose program is a file of the workspace: written as a path, or found first on PATH", () => {
    assert.equal(onlyReads("./cat x"), false, "./cat");
    assert.equal(onlyReads("bin/cat x"), false, "bin/cat");
    assert.equal(onlyReads(`${workspace}/bin/cat x`), false, "the absolute path");
    for (const path of [`bin:${SYSTEM_PATH}`, `${workspace}/bin:${SYSTEM_PATH}`]) {
      assert.equal(onlyReads("cat x", place(path)), false, path);
    }
    // An empty PATH entry is the working directory, where a `cat` is planted too.
    assert.equal(onlyReads("cat x", place(`:${SYSTEM_PATH}`)), false, "empty entry");
    assert.equal(onlyReads("cat x", place(`${SYSTEM_PATH}:bin`)), true, "the system's cat first");
    // A builtin is run by bash itself, whatever PATH holds.
    assert.equal(onlyReads("echo x", place(`bin:${SYSTEM_PATH}`)), true, "echo");
  });

  it("is not one found in a temp dir or a directory the sandbox lets commands write", () => {
    const writable = mkdtempSync(join(tmpdir(), "cw-read-only-path-"));
    writeFileSync(join(writable, "ls"), "#!/bin/sh\ntouch x\n");
    chmodSync(join(writable, "ls"), 0o755);
    assert.equal(onlyReads("ls", place(`${writable}:${SYSTEM_PATH}`)), false);
    rmSync(writable, { recursive: true, force: true });
    const elsewhere = { ...place(), writable: ["/usr", "/bin"] };
    assert.equal(onlyReads("cat x", elsewhere), false, "the sandbox's writable dirs");
  });

  it("is not one a bash start-up file or an exported function could change", () => {
    assert.equal(onlyReads("cat x", place(SYSTEM_PATH, { BASH_ENV: "setup.sh" })), false);
    assert.equal(onlyReads("cat x", place(SYSTEM_PATH, { "BASH_FUNC_cat%%": "() { :; }" })), false);
  });

  it("of plain words only is answered without the parse, as the parse answers it", () => {
    const inWorkspace = place(`${join(workspace, "bin")}:${SYSTEM_PATH}`);
    for (const [command, where] of [
      ["cat build.log", place()],
      ["  ls -la src/a.ts,b@c%d+e:f ", place()],
      ["./cat x", place()],
      ["bin/cat x", place()],
      ["cat x", inWorkspace],
      ["head -n 5 notes.md", place(SYSTEM_PATH, { BASH_ENV: "setup.sh" })],
      ["cat x y z", place(SYSTEM_PATH, { "BASH_FUNC_cat%%": "() { :; }" })],
    ] as const) {
      // The same command with a trailing `;` is no longer plain: the parser reads it.
      assert.equal(onlyReads(command, where), onlyReads(`${command};`, where), command);
    }
  });

  it("is not one naming no reader, answered without the parse", () => {
    assert.equal(bashChangesNoFile("npm test", place()), false);
  });
});
