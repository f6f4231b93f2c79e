// `@path` imports in AGENTS.md and CLAUDE.md, read into the system prompt as Claude Code reads
// them: relative to the importing file, recursive to a depth of 5, each file once, not from code
// spans or fenced blocks, and never from outside the repository unless allowed.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { BUILTIN_PROMPT } from "../../src/agent/builtin-prompt.ts";
import { buildSystemPrompt } from "../../src/agent/system-prompt.ts";
import { markRepository } from "../support/git-marker.ts";

let root: string;
let repo: string;
let home: string;
let userHome: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "cw-imports-")));
  repo = join(root, "repo");
  home = join(root, "cw-home");
  userHome = join(root, "user");
  for (const dir of [home, userHome]) mkdirSync(dir, { recursive: true });
  markRepository(repo);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function prompt(options: { allowedDirs?: string[] } = {}): { text: string; skipped: string[] } {
  const skipped: string[] = [];
  const text = buildSystemPrompt({
    cwd: repo,
    home,
    userHome,
    onSkipped: (message) => skipped.push(message),
    ...options,
  });
  return { text: text.slice(BUILTIN_PROMPT.length), skipped };
}

/** The headings of the instruction sections, in order. */
const headings = (text: string) =>
  text.split("\n").filter((line) => line.startsWith("# Instructions from "));

describe("@path imports in instruction files", () => {
  it("adds each imported file after its importer, recursively, and AGENTS.md only once", () => {
    write(join(repo, "AGENTS.md"), "Shared rules.");
    write(join(repo, "CLAUDE.md"), "@AGENTS.md\nSee @docs/style.md for style.");
    write(join(repo, "docs", "style.md"), "Style: tabs.\nAlso @../notes/api.md.");
    write(join(repo, "notes", "api.md"), "API notes.");
    const { text, skipped } = prompt();
    assert.deepEqual(headings(text), [
      `# Instructions from ${join(repo, "AGENTS.md")}`,
      `# Instructions from ${join(repo, "CLAUDE.md")}`,
      `# Instructions from ${join(repo, "docs", "style.md")} (imported by ${join(repo, "CLAUDE.md")})`,
      `# Instructions from ${join(repo, "notes", "api.md")} (imported by ${join(repo, "docs", "style.md")})`,
    ]);
    assert.equal(text.split("Shared rules.").length, 2, "AGENTS.md once");
    assert.deepEqual(skipped, []);
  });

  it("stops a cycle where it closes and goes no deeper than 5", () => {
    write(join(repo, "AGENTS.md"), "@a.md");
    write(join(repo, "a.md"), "A @b.md");
    write(join(repo, "b.md"), "B @a.md @AGENTS.md");
    write(join(repo, "CLAUDE.md"), "@d1.md");
    for (let n = 1; n <= 7; n++) write(join(repo, `d${n}.md`), `depth ${n} @d${n + 1}.md`);
    const { text } = prompt();
    assert.equal(text.split("\nA @b.md").length, 2);
    assert.equal(text.split("\nB @a.md").length, 2);
    for (let n = 1; n <= 5; n++) assert.match(text, new RegExp(`depth ${n} `));
    assert.doesNotMatch(text, /depth 6/);
  });

  it("reads no import from code spans, fenced blocks or e-mail addresses", () => {
    write(
      join(repo, "AGENTS.md"),
      "Run `@x.md`.\n```\n@y.md\n```\n~~~md\n@y.md\n~~~\nMail me@z.md or @real.md.",
    );
    for (const name of ["x.md", "y.md", "z.md", "real.md"]) write(join(repo, name), `from ${name}`);
    const { text } = prompt();
    assert.match(text, /from real\.md/);
    for (const name of ["x.md", "y.md", "z.md"])
      assert.doesNotMatch(text, new RegExp(`from ${name}`));
  });

  it("skips an import outside the repository, naming it, unless allowed_prompt_dirs lists it", () => {
    write(join(root, "outside", "secret.md"), "outside text");
    write(join(userHome, "notes.md"), "home notes");
    write(join(repo, "AGENTS.md"), "@../outside/secret.md @~/notes.md");
    const refused = prompt();
    assert.doesNotMatch(refused.text, /outside text|home notes/);
    assert.equal(refused.skipped.length, 2);
    assert.match(
      refused.skipped[0] ?? "",
      /skipping .*secret\.md, imported by .*AGENTS\.md: it is outside the repository/,
    );
    const allowed = prompt({ allowedDirs: [join(root, "outside")] });
    assert.match(allowed.text, /outside text/);
  });

  it("lets the user's own AGENTS.md import from anywhere, ~/ included", () => {
    write(join(userHome, "notes.md"), "home notes");
    write(join(home, "AGENTS.md"), "@~/notes.md");
    assert.match(prompt().text, /home notes/);
  });

  it("never opens a FIFO or a directory named by an import", () => {
    execFileSync("mkfifo", [join(repo, "pipe.md")]);
    mkdirSync(join(repo, "dir.md"));
    write(join(repo, "AGENTS.md"), "@pipe.md @dir.md");
    assert.deepEqual(headings(prompt().text), [`# Instructions from ${join(repo, "AGENTS.md")}`]);
  });
});
