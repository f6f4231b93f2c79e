// The one escaper for text from outside codewhale: every control character (C0, DEL, C1), the
// bidirectional controls and the invisible characters become visible escapes; newline and tab
// stay in text shown on several lines and are escaped on one line; emoji that draw with a
// zero-width joiner or tag characters stay as they are; JSON keeps its value.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jsonSafe, terminalSafe, terminalSafeLine } from "../../src/runner/escape-controls.ts";

describe("the one escaper", () => {
  it("shows screen clears, OSC 52 and OSC 8, BEL, DEL and C1 controls as escapes", () => {
    const text =
      "a\u001b[2J\u001b]52;c;SGk=\u0007\u001b]8;;https://x\u001b\\L\u007f\u009b31m\u0085";
    assert.equal(
      terminalSafe(text),
      "a\\x1b[2J\\x1b]52;c;SGk=\\x07\\x1b]8;;https://x\\x1b\\L\\x7f\\x9b31m\\x85",
    );
  });

  it("shows bidi controls, zero-width and invisible characters and tags as escapes", () => {
    const text = "\u202ex\u2066\u200ey\u200bz\u200c\u200d\u2060\ufeff\u061c\u3164\u2028\u{e0041}";
    assert.equal(
      terminalSafe(text),
      "\\u202ex\\u2066\\u200ey\\u200bz\\u200c\\u200d\\u2060\\ufeff\\u061c\\u3164\\u2028\\u{e0041}",
    );
  });

  it("keeps emoji that draw with a zero-width joiner, a skin tone or a flag's tags", () => {
    for (const emoji of [
      "👩‍💻",
      "👩🏽‍💻",
      "❤️‍🔥",
      "🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}",
      "é✓",
    ])
      assert.equal(terminalSafe(emoji), emoji);
  });

  it("keeps newline and tab on several lines, escapes them on one", () => {
    assert.equal(terminalSafe("a\tb\nc\rd"), "a\tb\nc\\x0dd");
    assert.equal(terminalSafeLine("a\tb\nc\rd"), "a\\x09b\\x0ac\\x0dd");
  });

  it("JSON keeps its value, nothing in it acts on a terminal", () => {
    const value = { name: "x\u009b2J\u202e\u200b\u{e0041}", text: "a\u001b[2J\nb" };
    const json = jsonSafe(JSON.stringify(value, null, 2));
    assert.deepEqual(JSON.parse(json), value);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding raw control characters is the point
    assert.doesNotMatch(json, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202e\u{e0041}]/u);
  });
});
