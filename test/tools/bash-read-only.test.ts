// Which bash commands change no file (src/tools/builtin/bash-read-only.ts): only programs that
// read, with plain or quoted words; any redirection, expansion, substitution, assignment or
// program it does not know counts as a command that may change files.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { changesNoFile } from "../../src/tools/builtin/bash-read-only.ts";

describe("a bash command that changes no file", () => {
  it("is one of programs that only read, joined by pipes and lists, with plain or quoted words", () => {
    for (const command of [
      "cat build.log",
      "ls -la src",
      "grep -rn 'foo bar; > x' src | head -20",
      'wc -l a.txt && cat "b c.txt" || true',
      "head -n 5 *.ts; tail -3 notes.md",
    ]) {
      assert.equal(changesNoFile(command), true, command);
    }
  });

  it("is not one that redirects, expands, substitutes, assigns, runs in the background or names another program", () => {
    for (const command of [
      "cat a > b",
      "cat a >> b",
      "echo x 2>&1",
      "sed -i s/a/b/ f",
      "sort -o out in",
      "find . -delete",
      "cat $(rm x)",
      "echo `rm x`",
      'echo "$HOME"',
      "cat a\\ b",
      '"rm" x',
      "X=1 cat a",
      "cat a; rm b",
      "cat a & rm b",
      "cat a\nrm b",
      "(cat a)",
      "cat a;",
      "cat 'unclosed",
      "tee x",
      "./cat a",
      "",
    ]) {
      assert.equal(changesNoFile(command), false, command);
    }
  });
});
