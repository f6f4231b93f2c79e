// Vim mode in the terminal's editor (docs/terminal.md#vim-mode): the normal-mode keys over a
// buffer (a fake editor), and in-process, `/vim` then Esc and motions that edit the prompt sent.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { VimMode } from "../../src/tui/vim-mode.ts";
import { loggedEvents, ofType, startVirtual } from "../support/virtual-chat.ts";

/** The text, cursor and mode after `keys` in normal mode, from `text` with the cursor at `col`. */
function run(text: string, col: number, keys: string, line = 0) {
  let lines = text.split("\n");
  const cursor = { line, col };
  const editor = {
    getLines: () => [...lines],
    getCursor: () => ({ ...cursor }),
    setText: (next: string) => {
      lines = next.split("\n");
    },
    moveCursorTo: (row: number, column: number) =>
      Object.assign(cursor, { line: row, col: column }),
  };
  const vim = new VimMode(editor);
  vim.mode = "normal";
  for (const key of keys) assert.ok(vim.handle(key, false), `normal mode takes ${key}`);
  return { text: lines.join("\n"), ...cursor, mode: vim.mode };
}

describe("vim's normal mode", () => {
  it("h and l move within the line, 0 and $ to its ends", () => {
    assert.equal(run("hello", 2, "h").col, 1);
    assert.equal(run("hello", 4, "l").col, 4, "l stops on the last character");
    assert.equal(run("hello", 3, "0").col, 0);
    assert.equal(run("hello", 0, "$").col, 4);
  });

  it("j and k move between lines, the column kept within the shorter one", () => {
    assert.deepEqual(run("long line\nab", 6, "j"), {
      text: "long line\nab",
      line: 1,
      col: 1,
      mode: "normal",
    });
    assert.equal(run("ab\nlong", 3, "k", 1).col, 1);
    assert.equal(run("one", 1, "k").line, 0, "k on the first line stays");
  });

  it("w and b move by words, punctuation a word of its own, across lines", () => {
    assert.equal(run("foo bar.baz", 0, "w").col, 4);
    assert.equal(run("foo bar.baz", 4, "w").col, 7);
    assert.deepEqual(run("foo\n  bar", 0, "w"), {
      text: "foo\n  bar",
      line: 1,
      col: 2,
      mode: "normal",
    });
    assert.equal(run("foo bar", 6, "b").col, 4);
    assert.equal(run("foo bar", 4, "b").col, 0);
    assert.deepEqual(run("foo\nbar", 0, "b", 1), {
      text: "foo\nbar",
      line: 0,
      col: 0,
      mode: "normal",
    });
  });

  it("x deletes the character under the cursor, dd the line", () => {
    assert.deepEqual(run("abc", 1, "x"), { text: "ac", line: 0, col: 1, mode: "normal" });
    assert.deepEqual(run("abc", 2, "x"), { text: "ab", line: 0, col: 1, mode: "normal" });
    assert.deepEqual(run("one\n  two\nthree", 1, "dd"), {
      text: "  two\nthree",
      line: 0,
      col: 2,
      mode: "normal",
    });
    assert.deepEqual(run("only", 2, "dd"), { text: "", line: 0, col: 0, mode: "normal" });
  });

  it("i, a, A and o go to insert mode where vim puts the cursor", () => {
    assert.deepEqual(run("abc", 1, "i"), { text: "abc", line: 0, col: 1, mode: "insert" });
    assert.deepEqual(run("abc", 1, "a"), { text: "abc", line: 0, col: 2, mode: "insert" });
    assert.deepEqual(run("abc", 0, "A"), { text: "abc", line: 0, col: 3, mode: "insert" });
    assert.deepEqual(run("abc\ndef", 1, "o"), {
      text: "abc\n\ndef",
      line: 1,
      col: 0,
      mode: "insert",
    });
  });
});

describe("vim mode in the terminal", () => {
  it("/vim, then Esc and normal-mode keys edit the prompt that Enter sends", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    screen.type("/vim");
    screen.keys("Enter");
    await screen.waitFor("-- INSERT --");
    mock.enqueue({ blocks: [{ kind: "text", text: "Edited prompt received." }] });
    screen.type("one two three");
    await screen.waitFor("one two three");
    screen.keys("Escape");
    await screen.waitFor("-- NORMAL --");
    // b: to "three"; x: "hree"; 0 w x: "wo"; $ x: "hre"; A then "!" appends in insert mode.
    screen.type("bx0wx$xA!");
    await screen.waitFor("one wo hre!");
    assert.match(screen.screen(), /-- INSERT --/);
    screen.keys("Enter");
    await screen.waitFor("Edited prompt received.");
    const [sent] = ofType(loggedEvents(setup.home), "user/message");
    assert.equal(sent?.text, "one wo hre!");
  });

  it("[display] editor_mode = vim starts in insert mode; /vim turns it off", async (t) => {
    const { screen } = await startVirtual(t, [], { toml: '[display]\neditor_mode = "vim"\n' });
    await screen.waitFor("-- INSERT --");
    screen.type("/vim");
    screen.keys("Enter");
    await screen.waitFor("vim mode off");
    assert.doesNotMatch(screen.screen(), /-- (INSERT|NORMAL) --/);
  });
});
