// `@path` completion over the workspace's files and the paste label: the prefix is found only
// at a word's start, a query that climbs out of the workspace offers nothing, a symlink out is
// never offered, `@server:` offers that MCP server's resources (never a URI with escapes),
// and a paste marker is relabelled without changing the line's width. Tab on a typed path
// offers the same files only (not ignored, not above, not absolute, not home).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { visibleWidth } from "@mariozechner/pi-tui";
import type { McpResourceInfo } from "../../src/tools/mcp-catalog.ts";
import { atPrefix, InputCompletion, WorkspaceFiles } from "../../src/tui/completion.ts";
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

describe("@server:uri completion", () => {
  it("offers a server after @, its resources after @server:, never a URI with escapes", async () => {
    const ws = mkdtempSync(join(tmpdir(), "cw-complete-mcp-"));
    const resource = (uri: string): McpResourceInfo => ({
      server: "docs",
      uri,
      name: uri.split("/").pop() ?? uri,
      mention: `@docs:${uri}`,
    });
    const resources = [
      resource("file:///guide.md"),
      resource("file:///api.md"),
      resource("file:///\u001b]0;owned\u0007.md"),
      resource("file:///two words.md"),
    ];
    const completion = new InputCompletion(() => [], new WorkspaceFiles(ws), ws, {
      servers: () => ["docs"],
      resourcesOf: (server) => (server === "docs" ? resources : []),
    });
    const offered = async (line: string) => {
      const signal = new AbortController().signal;
      const got = await completion.getSuggestions([line], 0, line.length, { signal });
      return got?.items.map((item) => item.value) ?? [];
    };
    assert.deepEqual(await offered("see @do"), ["@docs:"]);
    assert.deepEqual(await offered("see @docs:"), [
      "@docs:file:///guide.md",
      "@docs:file:///api.md",
    ]);
    assert.deepEqual(await offered("see @docs:gui"), ["@docs:file:///guide.md"]);
    assert.deepEqual(await offered("see @nope:x"), []);
    const applied = completion.applyCompletion(
      ["see @do"],
      0,
      7,
      { value: "@docs:", label: "docs:" },
      "@do",
    );
    assert.deepEqual(applied, { lines: ["see @docs:"], cursorLine: 0, cursorCol: 10 });
  });
});

describe("Tab on a typed path", () => {
  it("offers workspace files only: not ignored, not above, not absolute, not home", async () => {
    const ws = mkdtempSync(join(tmpdir(), "cw-tab-"));
    const outside = mkdtempSync(join(tmpdir(), "cw-tab-out-"));
    mkdirSync(join(ws, "lib"));
    writeFileSync(join(ws, "lib", "parser.ts"), "");
    writeFileSync(join(ws, "ignored.log"), "");
    writeFileSync(join(ws, ".gitignore"), "*.log\n");
    mkdirSync(join(ws, ".git"));
    writeFileSync(join(ws, ".git", "config"), "");
    writeFileSync(join(outside, "secret.txt"), "");
    symlinkSync(join(outside, "secret.txt"), join(ws, "link-out.txt"));
    const completion = new InputCompletion(
      () => [{ name: "help", description: "the keys and commands" }],
      new WorkspaceFiles(ws),
      ws,
    );
    const tab = async (line: string, force = true) => {
      const offered = await completion.getSuggestions([line], 0, line.length, {
        signal: new AbortController().signal,
        force,
      });
      return offered?.items.map((item) => item.value) ?? [];
    };
    assert.deepEqual(await tab("open li"), ["lib/"]);
    assert.deepEqual(await tab("open lib/pa"), ["lib/parser.ts"]);
    assert.deepEqual(await tab("open ./lib/"), ["./lib/parser.ts"]);
    assert.deepEqual(await tab("open ign"), [], "a .gitignored file");
    assert.deepEqual(await tab("open link"), [], "a symlink out of the workspace");
    assert.deepEqual(await tab(".git"), [".gitignore"], "not the .git directory");
    for (const out of ["open ../", "open lib/../../", `open ${outside}/`, "open /et", "open ~/"]) {
      assert.deepEqual(await tab(out), [], out);
    }
    assert.deepEqual(await tab("/he", false), ["help"], "the command menu is unchanged");
    // A space ends a mention: typed while the @ menu is open, it lists nothing (else the Enter
    // that follows inserts a file instead of sending); Tab after a space still lists.
    assert.deepEqual(await tab("see @lib/parser.ts ", false), []);
    assert.ok((await tab("open ")).includes("lib/"));
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
