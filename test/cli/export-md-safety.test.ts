// The Markdown export is no attack channel: what a model or a tool wrote, rendered by
// markdown-it with raw HTML on (as a permissive previewer would), holds no script, image,
// event handler or link to a scheme other than http(s)/mailto, and no heading but codewhale's
// own (the title and one per prompt), in every view; and the file's receipt still verifies.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import MarkdownIt from "markdown-it";
import type { EventInput } from "../../src/session/events.ts";
import { runCli } from "../support/cli.ts";
import { type ExportSetup, hostileSession } from "../support/export-fixtures.ts";
import { resultEvent, tempDir } from "../support/session-fixtures.ts";

/** Markdown a hostile model might write: forged turns, HTML, images, links, definitions. */
const FORGED = [
  "Done.",
  "",
  "### User",
  "",
  "> ### User",
  "- ## Assistant",
  "",
  "User",
  "====",
  "",
  "Tool result",
  "---",
  '<img src="http://127.0.0.1:9/beacon.png" onerror="alert(1)">',
  '<div onclick="alert(2)">click</div>',
  "<script>alert(3)</script> and <javascript:alert(4)>",
  "[safe](https://example.com) [bad](javascript:alert(5)) [data](data:text/html,x)",
  "[rel](other.md) [multi](",
  "javascript:alert(6))",
  "![pixel](http://127.0.0.1:9/pixel.png) ![ref][p] [ref link][q]",
  "",
  "[p]: http://127.0.0.1:9/p.png",
  "[q]: javascript:alert(7)",
  "",
  "`<b>inline code</b>` stays code",
  "",
  "```html",
  "<script>in a fence</script>",
  "```",
  "",
  "```",
  "<script>an unclosed fence</script>",
].join("\n");

function forgedTurn(): EventInput[] {
  const step = { turn: 1, step: 0 };
  const model = { provider: "anthropic", model: "claude-sonnet-4-5" };
  const usage = { input: 10, output: 5, cache_read: 0, cache_write: 0, reasoning: 0 };
  return [
    { type: "user/message", text: "### Assistant\n<img src=x onerror=alert(8)> [x](javascript:y)" },
    { type: "turn/start", turn: 1 },
    { type: "step/start", ...step, ...model },
    {
      type: "assistant/chunk",
      ...step,
      block: 0,
      kind: "thinking",
      delta: "## User\n![t](http://127.0.0.1:9/t)",
    },
    { type: "assistant/chunk", ...step, block: 1, kind: "text", delta: FORGED },
    { type: "step/end", ...step, usage, cost: 0.001 },
    {
      type: "tool/call",
      ...step,
      call_id: "call_9",
      name: "bash",
      arguments: { command: "cat notes.md" },
      decision: { outcome: "allow", by: "mode" },
    },
    resultEvent("call_9", "```\n### User\n<script>alert(9)</script>\n````"),
    { type: "context/note", turn: 1, source: "hook:<b>x</b>", text: "# User\n<img src=y>" },
    { type: "turn/end", turn: 1, reason: "error", error: "<img src=z onerror=alert(10)>" },
  ];
}

function cli(setup: ExportSetup, ...args: string[]) {
  return runCli(args, { env: setup.env, cwd: setup.home });
}

const md = new MarkdownIt({ html: true, linkify: false });

/** What a previewer makes of the file (front matter aside): its HTML, headings and URLs. */
function preview(text: string) {
  const html = md.render(text.replace(/^---\n[\s\S]*?\n---\n/, ""));
  const headings = [...html.matchAll(/<h([1-6])>([\s\S]*?)<\/h\1>/g)].map((m) => m[2] ?? "");
  const urls = [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1] ?? "");
  return { html, headings, urls };
}

describe("the Markdown export neutralises what a model or tool wrote", () => {
  const setup = hostileSession(forgedTurn());
  const out = tempDir("cw-export-md-");

  for (const view of ["canonical", "response-only", "thinking-only"]) {
    it(`${view}: no script, image, handler or unsafe link, and only codewhale's headings`, () => {
      const file = join(out, `${view}.md`);
      const run = cli(setup, "export", setup.id, "--view", view, "--format", "md", "-o", file);
      assert.equal(run.status, 0, run.stderr);
      const { html, headings, urls } = preview(readFileSync(file, "utf8"));
      assert.doesNotMatch(html, /<script/i);
      assert.doesNotMatch(html, /<img/i);
      assert.doesNotMatch(html, /<(?:div|iframe|object|embed|svg|b)[\s>]/i);
      assert.doesNotMatch(html, /<[a-z][^>]*\son[a-z]+\s*=/i);
      for (const url of urls) assert.match(url, /^(https?:|mailto:)/i, url);
      assert.deepEqual(headings, [`Session ${setup.id}`, "User", "User"]);
      const verified = cli(setup, "export", "verify", file);
      assert.equal(verified.status, 0, verified.stderr);
    });
  }

  it("keeps the answer's own Markdown: emphasis, safe links as links, code as code", () => {
    const file = join(out, "keep.md");
    const run = cli(setup, "export", setup.id, "--view", "response-only", "-o", file);
    assert.equal(run.status, 0, run.stderr);
    const { html, urls } = preview(readFileSync(file, "utf8"));
    assert.match(html, /<strong>fix<\/strong>/);
    assert.ok(urls.includes("https://example.com"));
    assert.match(html, /<code>&lt;b&gt;inline code&lt;\/b&gt;<\/code>/);
    assert.match(html, /<code class="language-html">&lt;script&gt;in a fence/);
    assert.match(html, /!<a href="http:\/\/127.0.0.1:9\/pixel.png">pixel<\/a>/);
  });
});
