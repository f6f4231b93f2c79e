// `@path` completion over the workspace's files and the paste label: the prefix is found only
// at a word's start, a query that climbs out of the workspace offers nothing, a symlink out is
// never offered, and a paste marker is relabelled without changing the line's width.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { visibleWidth } from "@mariozechner/pi-tui";
import { atPrefix, WorkspaceFiles } from "../../src/tui/completion.ts";
import { relabelPastes } from "../../src/tui/input-editor.ts";

describe("@path completion", () => {
  it("finds the @ prefix only where a word starts", () => {
    assert.equal(atPrefix("read @src/ap"), "@src/ap");
    assert.equal(atPrefix('read @"my fi'), '@"my fi');
    assert.equal(atPrefix("mail me@example"), undefined);
  });

  it("offers workspace files only: not ignored, not above, not through a symlink out", async () => {
    const ws = mkdtempSync(join(tmpdir(), "cw-complete-"));
    const outside = mkdtempSync(join(tmpdir(), "cw-complete-out-"));
    mkdirSync(join(ws, "lib"));
    writeFileSync(join(ws, "lib", "parser.ts"), "");
    writeFileSync(join(ws, "ignored.log"), "");
    writeFileSync(join(ws, ".gitignore"), "*.log\n");
    writeFileSync(join(outside, "parser-secret.ts"), "");
    symlinkSync(join(outside, "parser-secret.ts"), join(ws, "parser-link.ts"));
    const files = new WorkspaceFiles(ws);
    assert.deepEqual(await files.suggest("parser"), ["lib/parser.ts"]);
    assert.deepEqual(await files.suggest("ignored"), []);
    assert.deepEqual(await files.suggest("../"), []);
    assert.deepEqual(await files.suggest(outside), []);
    assert.equal(files.inside("parser-link.ts"), false);
  });
});

describe("the paste label", () => {
  it("shows [pasted 2,400 lines] in the marker's width", () => {
    const line = "see [paste #1 +2400 lines] and [paste #2 1234 chars] |";
    const shown = relabelPastes(line);
    assert.match(shown, /^see \[pasted 2,400 lines\] +and \[pasted 1,234 chars\] +\|$/);
    assert.equal(visibleWidth(shown), visibleWidth(line));
  });
});
