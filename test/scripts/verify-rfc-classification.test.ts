// verify-rfc-classification run as a child process: the closed folder sets, file names, the
// parseable H1, INDEX.md equal to a fresh render, and a README that lists no RFCs.
import assert from "node:assert/strict";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { copyGoodTree, edit, failure, GOOD_TREE, RFC, runScript } from "./support/rfc-tree.ts";

const SCRIPT = "verify-rfc-classification";

/** Runs the script on a changed copy of the good tree and checks exit 1 and stderr. */
function expectViolations(change: (root: string) => void, ...violations: string[]): void {
  const root = copyGoodTree();
  change(root);
  const run = runScript(SCRIPT, ["--root", root]);
  assert.equal(run.stderr, failure(SCRIPT, ...violations));
  assert.equal(run.stdout, "");
  assert.equal(run.status, 1);
}

describe("verify-rfc-classification", () => {
  test("the good tree passes", () => {
    const run = runScript(SCRIPT, ["--root", GOOD_TREE]);
    assert.equal(
      run.stdout,
      "verify-rfc-classification: 5 RFCs classified; docs/rfc/INDEX.md is current\n",
    );
    assert.equal(run.stderr, "");
    assert.equal(run.status, 0);
  });

  describe("folder structure", () => {
    test("lifecycle folders come from a closed set", () => {
      expectViolations(
        (root) => mkdirSync(join(root, "docs/rfc/drafts")),
        "docs/rfc/drafts: unknown lifecycle folder; use one of proposed, implemented, rejected",
      );
    });

    test("class folders come from a closed set", () => {
      expectViolations(
        (root) => mkdirSync(join(root, "docs/rfc/proposed/ideas")),
        "docs/rfc/proposed/ideas: unknown class folder; use one of architecture, feature, process, security",
      );
    });

    test("an RFC sits in a class folder", () => {
      expectViolations(
        (root) => renameSync(join(root, RFC.exportHtml), join(root, "docs/rfc/proposed/x.md")),
        "docs/rfc/proposed/x.md: RFCs live in a class folder, docs/rfc/proposed/<class>/",
      );
    });

    test("class folders hold no folders", () => {
      expectViolations(
        (root) => mkdirSync(join(root, "docs/rfc/proposed/feature/drafts")),
        "docs/rfc/proposed/feature/drafts: unexpected folder; class folders hold only RFCs",
      );
    });

    test("only README.md and INDEX.md sit beside the lifecycle folders", () => {
      expectViolations(
        (root) => writeFileSync(join(root, "docs/rfc/notes.txt"), "notes\n"),
        "docs/rfc/notes.txt: unexpected file; only README.md and INDEX.md sit beside the lifecycle folders",
      );
    });

    test("the curated README exists", () => {
      expectViolations(
        (root) => rmSync(join(root, "docs/rfc/README.md")),
        "docs/rfc/README.md: missing; it states the format contract",
      );
    });

    test("the RFC folder exists", () => {
      expectViolations(
        (root) => rmSync(join(root, "docs/rfc"), { recursive: true }),
        "docs/rfc: missing; RFCs live in docs/rfc/",
      );
    });
  });

  describe("file names and titles", () => {
    test("file names are YYYY-MM-DD-slug.md", () => {
      const dir = "docs/rfc/proposed/feature";
      expectViolations(
        (root) => renameSync(join(root, RFC.exportHtml), join(root, dir, "Export_HTML.md")),
        `${dir}/Export_HTML.md: file name must be YYYY-MM-DD-slug.md, slug in lowercase-kebab`,
      );
    });

    test("the date is a calendar date", () => {
      const dir = "docs/rfc/proposed/feature";
      expectViolations(
        (root) =>
          renameSync(join(root, RFC.exportHtml), join(root, dir, "2026-02-30-export-html.md")),
        `${dir}/2026-02-30-export-html.md: 2026-02-30 is not a calendar date`,
      );
    });

    test("a malformed H1 is a hard error", () => {
      expectViolations(
        (root) => edit(root, RFC.releaseTrain, "# RFC: Weekly", "# RFC:Weekly"),
        `${RFC.releaseTrain}:1: the first line must be the H1 "# RFC: <title>"`,
      );
    });
  });

  describe("the index", () => {
    test("INDEX.md must equal a fresh render; the first differing line is named", () => {
      expectViolations(
        (root) => edit(root, RFC.appendOnly, "# RFC: Append-only", "# RFC: Append only"),
        "docs/rfc/INDEX.md:17: differs from a fresh render; run `npm run docs:index`",
      );
    });

    test("a moved RFC makes the index stale", () => {
      expectViolations((root) => {
        mkdirSync(join(root, "docs/rfc/rejected/feature"));
        const to = "docs/rfc/rejected/feature/2026-02-10-export-html.md";
        renameSync(join(root, RFC.exportHtml), join(root, to));
      }, "docs/rfc/INDEX.md:6: differs from a fresh render; run `npm run docs:index`");
    });

    test("INDEX.md must exist", () => {
      expectViolations(
        (root) => rmSync(join(root, "docs/rfc/INDEX.md")),
        "docs/rfc/INDEX.md: missing; run `npm run docs:index`",
      );
    });

    test("a hand edit to INDEX.md is caught", () => {
      expectViolations(
        (root) => edit(root, "docs/rfc/INDEX.md", "| Class |", "| Kind |"),
        "docs/rfc/INDEX.md:8: differs from a fresh render; run `npm run docs:index`",
      );
    });

    test("the curated README lists no RFCs", () => {
      const rows = [
        "- [Export](proposed/feature/2026-02-10-export-html.md)",
        "| 2026-01-20 | process | Weekly release train |",
        "See [the old log RFC](implemented/architecture/2026-01-05-append-only-log.md) in prose.",
      ];
      expectViolations(
        (root) =>
          edit(root, "docs/rfc/README.md", "(INDEX.md).\n", `(INDEX.md).\n${rows.join("\n")}\n`),
        "docs/rfc/README.md:4: lists an RFC; only INDEX.md lists RFCs",
        "docs/rfc/README.md:5: lists an RFC; only INDEX.md lists RFCs",
      );
    });
  });

  test("an unknown argument exits 2 with the usage", () => {
    const run = runScript(SCRIPT, ["extra"]);
    assert.equal(
      run.stderr,
      'verify-rfc-classification: unknown argument "extra"\nusage: verify-rfc-classification [--root DIR]\n',
    );
    assert.equal(run.status, 2);
  });
});
