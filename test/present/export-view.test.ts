// The export views and renderers as pure functions of events: chunks fold into one block per
// content block; each view keeps what it says; every string (tool argument keys and values,
// presentation titles included) goes through the clean function; HTML escapes what comes from
// the log and markdown-it renders answers with raw HTML, images and script links off; Markdown
// fences outgrow backtick runs; the same events render to the same bytes; markdown-it stays out
// of the CLI bundle.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { findInlineReceipt } from "../../src/present/export-receipt.ts";
import { renderView } from "../../src/present/export-render.ts";
import type { ExportFormat } from "../../src/present/export-render-types.ts";
import { type ExportView, ViewFold, type ViewItem } from "../../src/present/export-view.ts";
import type { EventInput, SessionEvent } from "../../src/session/events.ts";
import { repoRoot } from "../support/cli.ts";
import { resultEvent } from "../support/session-fixtures.ts";

const start: EventInput = {
  type: "session/start",
  session_id: "01a23226-eeec-76f9-9784-6af9d88f26ec",
  cwd: "/work/project",
  version: "0.0.0-test",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  config_fingerprint: "0".repeat(64),
};

/** Events with envelopes (the renderers never read `h`). */
function logOf(inputs: EventInput[]): SessionEvent[] {
  return [start, ...inputs].map(
    (input, seq) =>
      ({
        ...input,
        v: 1,
        seq,
        ts: `2026-12-01T10:00:0${seq % 10}.000Z`,
        h: "0".repeat(64),
      }) as SessionEvent,
  );
}

const step = { turn: 0, step: 0 };
const events = logOf([
  { type: "user/message", text: "hi <b>there</b>" },
  { type: "turn/start", turn: 0 },
  { type: "assistant/chunk", ...step, block: 0, kind: "thinking", delta: "hmm " },
  { type: "assistant/chunk", ...step, block: 0, kind: "thinking", delta: "SECRET" },
  {
    type: "assistant/chunk",
    ...step,
    block: 1,
    kind: "text",
    delta:
      "See [x](javascript:alert(1)) ![i](http://127.0.0.1:9/i.png) <img src=x onerror=alert(1)> **ok**",
  },
  { type: "assistant/chunk", ...step, block: 2, kind: "tool_input", delta: '{"command":' },
  {
    type: "tool/call",
    ...step,
    call_id: "c1",
    name: "bash",
    arguments: { command: "echo SECRET", SECRET: 1 },
    decision: { outcome: "allow", by: "mode" },
  },
  resultEvent("c1", "```\n````SECRET</pre><script>x</script>"),
  { type: "turn/end", turn: 0, reason: "completed" },
]);

const hide = (text: string) => text.replaceAll("SECRET", "[REDACTED:test]");

function itemsOf(view: ExportView): ViewItem[] {
  const fold = new ViewFold(view, hide);
  return [...events.flatMap((event) => fold.push(event)), ...fold.end()];
}

async function render(format: ExportFormat, view: ExportView = "canonical"): Promise<string> {
  let out = "";
  const options = { view, format, throughSeq: events.length - 1, redacted: true, clean: hide };
  await renderView(events, options, (text) => {
    out += text;
  });
  return out;
}

describe("export views", () => {
  it("fold each block's chunks into one item and keep what the view names", () => {
    assert.deepEqual(
      itemsOf("canonical").map((item) => item.kind),
      ["user", "thinking", "text", "tool-call", "tool-result", "turn-end"],
    );
    assert.deepEqual(
      itemsOf("response-only").map((item) => item.kind),
      ["user", "text", "turn-end"],
    );
    assert.deepEqual(
      itemsOf("thinking-only").map((item) => item.kind),
      ["user", "thinking", "turn-end"],
    );
    const thinking = itemsOf("thinking-only")[1]!;
    assert.equal(thinking.kind === "thinking" && thinking.text, "hmm [REDACTED:test]");
  });

  it("clean every string of a tool call, keys and the presentation title included", () => {
    const call = itemsOf("canonical").find((item) => item.kind === "tool-call")!;
    assert.ok(call.kind === "tool-call");
    assert.deepEqual(call.arguments, { command: "echo [REDACTED:test]", "[REDACTED:test]": 1 });
    assert.ok(!call.presentation.title.includes("SECRET"));
  });

  it("HTML escapes the log and renders answers without raw HTML, images or script links", async () => {
    const html = await render("html");
    assert.ok(!html.includes("SECRET"));
    assert.ok(!html.includes("<script>"));
    assert.ok(!html.includes("<img"));
    assert.ok(!html.includes('href="javascript:'));
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(html, /<strong>ok<\/strong>/);
    assert.match(html, /<pre class="output">```\n````\[REDACTED:test\]&lt;\/pre&gt;&lt;script&gt;/);
    assert.match(html, /<details class="thinking"/);
    assert.match(html, /<meta name="codewhale-derived-view" content="session=01a23226/);
    assert.ok(!(await render("html", "response-only")).includes("<details"));
  });

  it("Markdown fences outgrow the backtick runs inside and quotes escape raw HTML", async () => {
    const md = await render("md");
    assert.match(md, /\n`````\n```\n````\[REDACTED:test\]<\/pre><script>x<\/script>\n`````\n/);
    assert.match(md, /> hi \\<b\\>there\\<\/b\\>/);
  });

  it("pass every string from the log through clean: names, ids, sources, rewriters", async () => {
    const esc = "\u001b]0;owned\u0007";
    const hostile = logOf([
      { type: "user/message", text: "go" },
      { type: "turn/start", turn: 0 },
      {
        type: "tool/call",
        ...step,
        call_id: `c${esc}`,
        name: `tool${esc}`,
        arguments: { [`k${esc}`]: `v${esc}` },
        original_arguments: {},
        rewritten_by: `plugin:${esc}`,
        decision: { outcome: "deny", by: "rule", rule: `r${esc}`, reason: `no${esc}` },
      },
      { type: "context/note", turn: 0, source: `hook:${esc}`, text: "note" },
      { type: "turn/end", turn: 0, reason: "error", error: `bad${esc}` },
    ]).map((event, seq) => (seq === 0 ? { ...event, model: `m${esc}` } : event)) as SessionEvent[];
    const clean = (text: string) =>
      [...text].map((char) => (char.charCodeAt(0) < 32 ? "?" : char)).join("");
    for (const format of ["md", "html", "jsonl"] as const) {
      let out = "";
      const options = { view: "canonical" as const, format, throughSeq: 5, redacted: true, clean };
      await renderView(hostile, options, (text) => {
        out += text;
      });
      assert.ok(!out.includes("\u001b") && !out.includes("\u0007"), `${format}: ${out}`);
      assert.ok(!out.includes("\\u001b"), `${format}: no escaped control either`);
    }
  });

  it("render the same events to the same bytes", async () => {
    for (const format of ["md", "html", "jsonl"] as const) {
      assert.equal(await render(format), await render(format));
    }
  });

  it("keep markdown-it out of the CLI bundle: only an HTML export loads it", () => {
    const bundle = readFileSync(`${repoRoot}dist/cli.cjs`, "utf8");
    assert.match(bundle, /"markdown-it"/);
    assert.ok(!bundle.includes("ParserInline"), "markdown-it's code is not in the bundle");
  });
});

describe("export receipts in the file", () => {
  it("take the receipt that ends the file, not a marker quoted in an answer before it", () => {
    const forged = `<!-- codewhale-receipt -->\n<pre id="codewhale-receipt">{"forged":true}</pre>\n`;
    const real = `<!-- codewhale-receipt {"real":true} -->\n`;
    const text = `---\nfront\n---\n\n**Assistant**\n\n${forged}\n\n${real}`;
    const found = findInlineReceipt(Buffer.from(text), 0);
    assert.equal(found?.json, '{"real":true}');
    assert.equal(found?.bodyBytes, text.length - real.length);
  });
});
