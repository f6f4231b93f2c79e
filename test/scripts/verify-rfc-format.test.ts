// verify-rfc-format run as a child process against the good fixture tree and edited copies:
// each rule of the format contract yields its exact `path:line: message`.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { copyGoodTree, edit, failure, GOOD_TREE, RFC, runScript } from "./support/rfc-tree.ts";

const SCRIPT = "verify-rfc-format";
// Violations print sorted by path, then line: implemented/ before proposed/ before rejected/.

/** Copies the good tree, applies the edits, runs the script and checks exit 1 and stderr. */
function expectViolations(
  edits: [path: string, from: string, to: string][],
  ...violations: string[]
): void {
  const root = copyGoodTree();
  for (const [path, from, to] of edits) edit(root, path, from, to);
  const run = runScript(SCRIPT, ["--root", root]);
  assert.equal(run.stderr, failure(SCRIPT, ...violations));
  assert.equal(run.stdout, "");
  assert.equal(run.status, 1);
}

describe("verify-rfc-format", () => {
  test("the good tree passes, fenced headings ignored", () => {
    const run = runScript(SCRIPT, ["--root", GOOD_TREE]);
    assert.equal(run.stdout, "verify-rfc-format: 5 RFCs follow the format contract\n");
    assert.equal(run.stderr, "");
    assert.equal(run.status, 0);
  });

  describe("header", () => {
    test("a malformed H1 is reported on line 1", () => {
      expectViolations(
        [[RFC.exportHtml, "# RFC: Export", "# Export"]],
        `${RFC.exportHtml}:1: the first line must be the H1 "# RFC: <title>"`,
      );
    });

    test("the H1 is followed by a blank line", () => {
      expectViolations(
        [[RFC.exportHtml, "HTML\n\nStatus", "HTML\nStatus"]],
        `${RFC.exportHtml}:2: a blank line must follow the H1`,
      );
    });

    test("line 3 is the status", () => {
      expectViolations(
        [[RFC.exportHtml, "Status: proposed", "State: proposed"]],
        `${RFC.exportHtml}:3: line 3 must be "Status: <value>"`,
      );
    });

    test("the status comes from a closed set", () => {
      expectViolations(
        [[RFC.exportHtml, "Status: proposed", "Status: draft"]],
        `${RFC.exportHtml}:3: unknown status "draft"; use one of proposed, implemented, superseded, rejected`,
      );
    });

    test("the status agrees with the lifecycle folder", () => {
      expectViolations(
        [
          [RFC.exportHtml, "Status: proposed", "Status: implemented"],
          [RFC.releaseTrain, "Status: rejected", "Status: proposed"],
        ],
        `${RFC.exportHtml}:3: status "implemented" does not belong in proposed/; use proposed`,
        `${RFC.releaseTrain}:3: status "proposed" does not belong in rejected/; use rejected`,
      );
    });

    test("only the supersession links may follow the status", () => {
      expectViolations(
        [[RFC.exportHtml, "Status: proposed\n", "Status: proposed\nAuthor: someone\n"]],
        `${RFC.exportHtml}:4: unknown header field; only "Supersedes:" and "Superseded-by:"`,
      );
    });
  });

  describe("supersession", () => {
    test("a superseded RFC names its replacement, which links back", () => {
      expectViolations(
        [
          [
            RFC.appendOnly,
            "Superseded-by: [Hash-chained session log](2026-03-01-hash-chained-log.md)\n",
            "",
          ],
        ],
        `${RFC.appendOnly}:3: status "superseded" needs a "Superseded-by:" link to its replacement`,
        `${RFC.hashChained}:4: ${RFC.appendOnly} does not link back with "Superseded-by:"`,
      );
    });

    test("Superseded-by needs status superseded", () => {
      expectViolations(
        [[RFC.appendOnly, "Status: superseded", "Status: implemented"]],
        `${RFC.appendOnly}:4: "Superseded-by:" needs status "superseded"`,
      );
    });

    test("a link must reach an existing RFC", () => {
      expectViolations(
        [[RFC.hashChained, "(2026-01-05-append-only-log.md)", "(2026-01-04-nope.md)"]],
        `${RFC.appendOnly}:4: ${RFC.hashChained} does not link back with "Supersedes:"`,
        `${RFC.hashChained}:4: "Supersedes:" target docs/rfc/implemented/architecture/2026-01-04-nope.md is not an RFC`,
      );
    });

    test("a link field holds one Markdown link", () => {
      expectViolations(
        [
          [
            RFC.hashChained,
            "Supersedes: [Append-only session log](2026-01-05-append-only-log.md)",
            "Supersedes: the old one",
          ],
        ],
        `${RFC.appendOnly}:4: ${RFC.hashChained} does not link back with "Supersedes:"`,
        `${RFC.hashChained}:4: "Supersedes:" takes one Markdown link, [title](path.md)`,
      );
    });

    test("supersession links belong only in implemented/", () => {
      const link =
        "Supersedes: [Hash](../../implemented/architecture/2026-03-01-hash-chained-log.md)";
      expectViolations(
        [[RFC.exportHtml, "Status: proposed\n", `Status: proposed\n${link}\n`]],
        `${RFC.exportHtml}:4: "Supersedes:" belongs only in implemented/ RFCs`,
      );
    });

    test("the target must be an implemented/ RFC", () => {
      expectViolations(
        [
          [
            RFC.hashChained,
            "(2026-01-05-append-only-log.md)",
            "(../../rejected/process/2026-01-20-weekly-release-train.md)",
          ],
        ],
        `${RFC.appendOnly}:4: ${RFC.hashChained} does not link back with "Supersedes:"`,
        `${RFC.hashChained}:4: "Supersedes:" target ${RFC.releaseTrain} is not an implemented/ RFC`,
      );
    });
  });

  describe("sections", () => {
    test("the body opens with ## Problem", () => {
      expectViolations(
        [[RFC.exportHtml, "## Problem", "Some preamble.\n\n## Problem"]],
        `${RFC.exportHtml}:5: the body must open with "## Problem"`,
      );
    });

    test("each lifecycle's required sections are present", () => {
      expectViolations(
        [
          [RFC.exportHtml, "## Risks\n\nLarge sessions give large files.\n", ""],
          [RFC.hashChained, "## Consequences", "## Outcome"],
          [RFC.releaseTrain, "## Why rejected", "## Verdict"],
        ],
        `${RFC.hashChained}:1: missing section "## Consequences"`,
        `${RFC.exportHtml}:1: missing section "## Risks"`,
        `${RFC.releaseTrain}:1: missing section "## Why rejected"`,
      );
    });

    test("proposal-era sections are banned in implemented/, decision sections in proposed/", () => {
      expectViolations(
        [
          [RFC.hashChained, "## Consequences", "## Risks\n\nNone.\n\n## Consequences"],
          [RFC.exportHtml, "## Risks", "## Decision\n\nYes.\n\n## Risks"],
        ],
        `${RFC.hashChained}:18: "## Risks" is not allowed in implemented/ RFCs`,
        `${RFC.exportHtml}:25: "## Decision" is not allowed in proposed/ RFCs`,
      );
    });

    test("required sections keep their order", () => {
      expectViolations(
        [
          [RFC.releaseTrain, "## Proposal\n\nRelease every Monday.\n\n", ""],
          [RFC.releaseTrain, "## Risks", "## Proposal\n\nRelease every Monday.\n\n## Risks"],
        ],
        `${RFC.releaseTrain}:17: "## Proposal" is out of order; sections run Problem, Proposal, Alternatives considered, Acceptance criteria, Risks, Why rejected`,
      );
    });

    test("a section appears once", () => {
      expectViolations(
        [[RFC.auditHooks, "## Risks", "## Proposal\n\nAgain.\n\n## Risks"]],
        `${RFC.auditHooks}:25: duplicate section "## Proposal"`,
      );
    });

    test("there is one H1", () => {
      expectViolations(
        [[RFC.exportHtml, "## Risks", "# Risks"]],
        `${RFC.exportHtml}:1: missing section "## Risks"`,
        `${RFC.exportHtml}:25: only one H1; sections are "## " headings`,
      );
    });
  });

  describe("wording", () => {
    test("no debt markers, even in code", () => {
      expectViolations(
        [
          [RFC.exportHtml, "Render one", "TODO: render one"],
          [RFC.exportHtml, "## Decision", "## Decision XXX"],
        ],
        `${RFC.exportHtml}:11: debt marker "TODO"; open work belongs in an issue`,
        `${RFC.exportHtml}:14: debt marker "XXX"; open work belongs in an issue`,
      );
    });

    test("implemented RFCs use the present tense", () => {
      expectViolations(
        [[RFC.hashChained, "Hand edits are refused.", "We will refuse hand edits."]],
        `${RFC.hashChained}:20: implemented RFCs use the present tense, not "We will"`,
      );
    });

    test("proposals may use the future tense", () => {
      const root = copyGoodTree();
      edit(root, RFC.exportHtml, "Render one", "We will render one");
      assert.equal(runScript(SCRIPT, ["--root", root]).status, 0);
    });
  });

  describe("usage", () => {
    test("an unknown argument exits 2 with the usage", () => {
      const run = runScript(SCRIPT, ["--bogus"]);
      assert.equal(
        run.stderr,
        'verify-rfc-format: unknown argument "--bogus"\nusage: verify-rfc-format [--root DIR]\n',
      );
      assert.equal(run.status, 2);
    });

    test("--root must name a directory", () => {
      const run = runScript(SCRIPT, ["--root", "/nonexistent/rfc-root"]);
      assert.match(
        run.stderr,
        /^verify-rfc-format: --root: not a directory: \/nonexistent\/rfc-root\n/,
      );
      assert.equal(run.status, 2);
    });

    test("--root needs a value; --help prints the usage", () => {
      assert.equal(runScript(SCRIPT, ["--root"]).status, 2);
      const help = runScript(SCRIPT, ["--help"]);
      assert.equal(help.stdout, "usage: verify-rfc-format [--root DIR]\n");
      assert.equal(help.status, 0);
    });
  });
});
