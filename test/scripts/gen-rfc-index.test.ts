// gen-rfc-index run as a child process: it rewrites INDEX.md exactly as committed for the good
// tree, and refuses (writing nothing) when the tree breaks a structure rule or an H1.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { copyGoodTree, edit, failure, GOOD_TREE, RFC, runScript } from "./support/rfc-tree.ts";

const SCRIPT = "gen-rfc-index";
const INDEX = "docs/rfc/INDEX.md";

describe("gen-rfc-index", () => {
  test("writes the whole index, byte for byte the committed one", () => {
    const root = copyGoodTree();
    rmSync(join(root, INDEX));
    const run = runScript(SCRIPT, ["--root", root]);
    assert.equal(run.stdout, "gen-rfc-index: wrote docs/rfc/INDEX.md (5 RFCs)\n");
    assert.equal(run.stderr, "");
    assert.equal(run.status, 0);
    assert.equal(
      readFileSync(join(root, INDEX), "utf8"),
      readFileSync(join(GOOD_TREE, INDEX), "utf8"),
    );
  });

  test("takes the title from the H1, without the RFC: prefix", () => {
    const root = copyGoodTree();
    edit(root, RFC.releaseTrain, "# RFC: Weekly release train", "# RFC: Monthly release train");
    assert.equal(runScript(SCRIPT, ["--root", root]).status, 0);
    const index = readFileSync(join(root, INDEX), "utf8");
    assert.match(
      index,
      /\| 2026-01-20 \| process \| \[Monthly release train\]\(rejected\/process\//,
    );
  });

  test("a malformed H1 is a hard error and nothing is written", () => {
    const root = copyGoodTree();
    edit(root, RFC.exportHtml, "# RFC: Export sessions as HTML", "# RFC:");
    const before = readFileSync(join(root, INDEX), "utf8");
    const run = runScript(SCRIPT, ["--root", root]);
    assert.equal(
      run.stderr,
      failure(SCRIPT, `${RFC.exportHtml}:1: the first line must be the H1 "# RFC: <title>"`),
    );
    assert.equal(run.status, 1);
    assert.equal(readFileSync(join(root, INDEX), "utf8"), before);
  });

  test("an unknown class folder stops it", () => {
    const root = copyGoodTree();
    mkdirSync(join(root, "docs/rfc/implemented/misc"));
    const run = runScript(SCRIPT, ["--root", root]);
    assert.equal(
      run.stderr,
      failure(
        SCRIPT,
        "docs/rfc/implemented/misc: unknown class folder; use one of architecture, feature, process, security",
      ),
    );
    assert.equal(run.status, 1);
  });

  test("usage errors exit 2", () => {
    const run = runScript(SCRIPT, ["--root=", "x"]);
    assert.equal(
      run.stderr,
      "gen-rfc-index: --root needs a directory\nusage: gen-rfc-index [--root DIR]\n",
    );
    assert.equal(run.status, 2);
  });
});
