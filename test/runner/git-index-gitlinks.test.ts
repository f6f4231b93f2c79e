// The gitlinks of a real git index, read without git: index versions 2, 3 (an entry with
// extended flags) and 4 (prefix-compressed paths), SHA-1 and SHA-256 repositories, long paths.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { indexGitlinks } from "../../src/runner/git-index-gitlinks.ts";

const base = mkdtempSync(join(tmpdir(), "cw-gitlinks-"));
after(() => rmSync(base, { recursive: true, force: true }));
const env = { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: "1", HOME: base };

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env, encoding: "utf8" });
}

/** A repository whose index holds files, two gitlinks (one deep, one long) and an intent-to-add. */
function repository(name: string, format: "sha1" | "sha256"): { dir: string; links: string[] } {
  const dir = join(base, name);
  mkdirSync(dir);
  git(dir, "init", "-q", `--object-format=${format}`);
  const long = `${"d".repeat(300)}/${"e".repeat(4000)}`;
  for (const file of ["a.txt", "b/c.txt", "b/d/e.txt", "z.txt"]) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), file);
  }
  git(dir, "add", ".");
  writeFileSync(join(dir, "new.txt"), "x");
  git(dir, "add", "-N", "new.txt");
  const sha = git(dir, "hash-object", "a.txt").trim();
  const links = ["b/d/sub", long, "m"];
  for (const link of links)
    git(dir, "update-index", "--add", "--cacheinfo", `160000,${sha},${link}`);
  return { dir, links: [...links].sort() };
}

describe("indexGitlinks", () => {
  for (const format of ["sha1", "sha256"] as const) {
    it(`finds every gitlink in index versions 2, 3 and 4 (${format})`, () => {
      const { dir, links } = repository(`repo-${format}`, format);
      for (const version of ["2", "3", "4"]) {
        git(dir, "update-index", "--index-version", version);
        const found = indexGitlinks(join(dir, ".git", "index"), format === "sha256" ? 32 : 20);
        assert.deepEqual([...found].sort(), links, `version ${version}`);
      }
    });
  }

  it("finds the gitlinks a split index keeps in its shared index", () => {
    const { dir, links } = repository("repo-split", "sha1");
    git(dir, "update-index", "--split-index");
    const index = join(dir, ".git", "index");
    assert.deepEqual([...indexGitlinks(index)].sort(), links);
    git(dir, "update-index", "--add", "--cacheinfo", `160000,${"1".repeat(40)},late`);
    assert.deepEqual([...indexGitlinks(index)].sort(), [...links, "late"].sort());
  });

  it("leaves out a gitlink path git itself refuses (.., absolute, .git): it would lead outside the workspace", () => {
    const dir = join(base, "repo-crafted");
    mkdirSync(dir);
    git(dir, "init", "-q");
    const sha = "1".repeat(40);
    for (const link of ["zz/ok/sub", "zz/aa/sub", "zz/bb/sub", "zz/cc/sub"])
      git(dir, "update-index", "--add", "--cacheinfo", `160000,${sha},${link}`);
    const index = join(dir, ".git", "index");
    // Same lengths, so only the bytes change: what a command writing the index could leave.
    const crafted = readFileSync(index, "latin1")
      .replace("zz/aa/sub", "../../sub")
      .replace("zz/bb/sub", "/tmp//sub")
      .replace("zz/cc/sub", "zz/.git/s");
    writeFileSync(index, crafted, "latin1");
    assert.deepEqual(indexGitlinks(index), ["zz/ok/sub"]);
  });

  it("stops at an entry whose path never ends, instead of reading the file again from its start", () => {
    // Version 4, SHA-1: a file "a" whose mtime nanoseconds read as a gitlink's mode when the
    // entries are read again from byte 0, then "b" with no NUL after it; three entries counted.
    // Reading on from the missing end went back to byte 0 (a crafted file could go round).
    const entry = (path: string, mode: number, mtimeNs: number, end: boolean) => {
      const head = Buffer.alloc(62);
      head.writeUInt32BE(mtimeNs, 12);
      head.writeUInt32BE(mode, 24);
      head.writeUInt16BE(path.length, 60);
      return Buffer.concat([
        head,
        Buffer.from([0]),
        Buffer.from(path),
        Buffer.from(end ? [0] : []),
      ]);
    };
    const header = Buffer.from("DIRC\0\0\0\x04\0\0\0\x03", "latin1");
    const data = Buffer.concat([
      header,
      entry("a", 0o100644, 0o160000, true),
      entry("b", 0o100644, 0, false),
    ]);
    writeFileSync(join(base, "endless"), data);
    assert.deepEqual(indexGitlinks(join(base, "endless")), []);
  });

  it("reads nothing from a missing or foreign file", () => {
    assert.deepEqual(indexGitlinks(join(base, "none")), []);
    writeFileSync(join(base, "junk"), "DIRC\0\0\0\x02\xff\xff\xff\xff");
    assert.deepEqual(indexGitlinks(join(base, "junk")), []);
  });
});
