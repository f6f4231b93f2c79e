// The repository root that instruction files, rule files and session scopes are found up to:
// an empty `.git` directory (the sandbox's mount point over a missing `.git`, kept while a
// session runs in a subdirectory of a repository) is passed over, as git passes over it.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { repositoryRoot } from "../../src/config/index.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "codewhale-root-")));
after(() => rmSync(root, { recursive: true, force: true }));

describe("the repository root", () => {
  it("an empty .git in a subdirectory is passed over; a git file or a full .git is a root", () => {
    const sub = join(root, "repo", "packages", "app");
    mkdirSync(join(sub, ".git"), { recursive: true });
    mkdirSync(join(root, "repo", ".git", "objects"), { recursive: true });
    assert.equal(repositoryRoot(sub), join(root, "repo"));
    rmSync(join(sub, ".git"), { recursive: true });
    writeFileSync(join(sub, ".git"), "gitdir: ../../.git/worktrees/app\n");
    assert.equal(repositoryRoot(sub), sub);
  });
});
