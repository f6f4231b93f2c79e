// web_fetch's question ranking (src/tools/builtin/web-question.ts) on Markdown alone: sections
// at headings (never inside a code fence), paragraph runs for a page without headings, the
// budget, and the page unchanged in order when nothing shares a word with the question.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { focusOnQuestion } from "../../src/tools/builtin/web-question.ts";

const PAGE = [
  "# Tool",
  "Intro.",
  "## Installing",
  "Use the installer.",
  "```sh",
  "# not a heading: configure later",
  "```",
  "## Configuration",
  "Configure the timeout in tool.toml; the timeout is in seconds.",
  "## History",
  "Written in 2001.",
].join("\n");

describe("focusOnQuestion", () => {
  it("puts the section that best matches the question first, plural and -ing forms included", () => {
    const focused = focusOnQuestion(PAGE, "Where are timeouts configured?");
    const body = focused.split("\n").slice(2).join("\n");
    assert.ok(body.startsWith("## Configuration"), body);
    assert.match(focused, /^\[web_fetch: 2 parts of the page sharing words/);
    assert.ok(body.includes("```sh\n# not a heading: configure later\n```"), body);
  });

  it("keeps the page in order with a note when no word matches", () => {
    const focused = focusOnQuestion(PAGE, "pricing?");
    assert.match(focused, /no part of the page shares a word with the question/);
    assert.ok(focused.endsWith(PAGE));
  });

  it("cuts a page without headings into paragraph runs and leaves out what passes the budget", () => {
    const filler = Array.from(
      { length: 30 },
      (_, i) => `Paragraph ${i} ${"lorem ipsum ".repeat(30)}`,
    );
    const page = [...filler.slice(0, 20), "The answer: bananas are yellow.", ...filler.slice(20)];
    const focused = focusOnQuestion(page.join("\n\n"), "what colour are bananas", 2000);
    const body = focused.split("\n").slice(2).join("\n");
    assert.match(body.split("\n\n")[0] ?? "", /Paragraph 1[0-9]|bananas/);
    assert.ok(body.indexOf("bananas are yellow") < 1600, body.slice(0, 300));
    assert.match(focused, /left out \(listed at the end\)/);
    assert.match(focused, /\nLeft out:\n- Paragraph/);
  });
});
