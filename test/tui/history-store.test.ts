// The prompt history file: this project's prompts come newest, the file stays bounded and
// private, a damaged line is skipped, a symlink in its place is not followed.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { PromptHistory } from "../../src/tui/history.ts";
import {
  appendHistory,
  historyPath,
  MAX_ENTRIES,
  MAX_ENTRY_CHARS,
  orderForProject,
  readHistory,
} from "../../src/tui/history-store.ts";

const entry = (project: string, text: string) => ({ ts: "2026-12-01T00:00:00Z", project, text });

describe("the prompt history", () => {
  it("puts this project's prompts newest, each text once at its latest place", () => {
    const order = orderForProject(
      [
        entry("/a", "a1"),
        entry("/b", "b1"),
        entry("/a", "a2"),
        entry("/b", "b2"),
        entry("/b", "a1"),
      ],
      "/a",
    );
    assert.deepEqual(order, ["b1", "b2", "a1", "a2"]);
  });

  it("stays bounded and private, and skips a damaged line", () => {
    const home = mkdtempSync(join(tmpdir(), "cw-history-"));
    const file = historyPath(home);
    writeFileSync(file, `not json\n${JSON.stringify(entry("/a", "kept"))}\n`, { mode: 0o644 });
    assert.deepEqual(
      readHistory(file).map((e) => e.text),
      ["kept"],
    );
    for (let index = 0; index < MAX_ENTRIES * 1.5 + 1; index++)
      appendHistory(file, entry("/a", `prompt ${index}`));
    const entries = readHistory(file);
    assert.ok(entries.length <= MAX_ENTRIES * 1.5, `bounded: ${entries.length}`);
    assert.equal(entries.at(-1)?.text, `prompt ${MAX_ENTRIES * 1.5}`, "newest last");
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(appendHistory(file, entry("/a", "x".repeat(MAX_ENTRY_CHARS + 1))), false);
  });

  it("does not write through a symlink put where the file goes", () => {
    const home = mkdtempSync(join(tmpdir(), "cw-history-"));
    const target = join(home, "elsewhere.txt");
    writeFileSync(target, "untouched\n");
    symlinkSync(target, historyPath(home));
    const history = new PromptHistory({ home, project: "/a", redact: (text) => text });
    history.record("a prompt");
    assert.equal(readFileSync(target, "utf8"), "untouched\n");
  });

  it("searches newest first and steps to older matches", () => {
    const home = mkdtempSync(join(tmpdir(), "cw-history-"));
    const history = new PromptHistory({
      home,
      project: "/a",
      redact: (t) => t.replace("sk", "**"),
    });
    for (const text of ["fix tests", "run build", "fix lint", "sk secret"]) history.record(text);
    const newest = history.search("FIX", history.texts.length);
    assert.equal(newest?.text, "fix lint");
    assert.equal(history.search("fix", newest?.index ?? 0)?.text, "fix tests");
    assert.equal(history.search("secret", 99)?.text, "** secret", "what is kept is redacted");
  });
});
