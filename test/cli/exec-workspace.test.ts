// The workspace notice of `codewhale exec`: one line when the workspace is $HOME, `/` or
// outside any git repository, naming it; none inside a repository.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { workspaceNotice } from "../../src/cli/exec-workspace.ts";
import { markRepository } from "../support/git-marker.ts";

describe("the exec workspace notice", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "cw-workspace-")));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("names $HOME, / and a directory outside git, and says nothing inside a repository", () => {
    const home = join(root, "home");
    const repo = join(root, "repo");
    mkdirSync(home);
    markRepository(repo);
    mkdirSync(join(repo, "src"));
    assert.match(workspaceNotice(home, home) ?? "", /workspace is .*home \(your home directory\)/);
    assert.match(workspaceNotice("/", home) ?? "", /workspace is \/ \(the root directory\)/);
    assert.match(workspaceNotice(root, home) ?? "", /\(not a git repository\): tools may write/);
    assert.equal(workspaceNotice(join(repo, "src"), home), null);
  });

  it("takes the home directory from $HOME, as every other setting does", () => {
    const saved = process.env.HOME;
    process.env.HOME = root;
    try {
      assert.match(workspaceNotice(root) ?? "", /\(your home directory\)/);
    } finally {
      process.env.HOME = saved;
    }
  });
});
