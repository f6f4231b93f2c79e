// The HTML rendering of a view (export-view.ts): one self-contained page, streamed item by item.
// No script, no external resource, a Content-Security-Policy that allows none (a prompt's
// images are embedded as data: URLs, the one kind of image it allows); thinking and
// rewritten arguments sit in <details>. Everything from the log is escaped; assistant text goes
// through markdown-it under the exports' rules (export-safety.ts: no raw HTML, no images, links
// only to http(s)/mailto, no headings), loaded on first use. Called by export-render.ts.
import { createRequire } from "node:module";
import type { MarkdownIt, MarkdownItOptions } from "markdown-it";
import type { WebSource } from "../session/web-search.ts";
import { HTML_STYLE } from "./export-html-style.ts";
import {
  compactionLine,
  diffText,
  imageLabel,
  subagentReceipt,
  truncationMarker,
  turnFooter,
} from "./export-md.ts";
import type { ExportMeta, ViewRenderer } from "./export-render-types.ts";
import { isSafeLink, MARKDOWN_RULES } from "./export-safety.ts";
import type { ImageNote, ViewItem } from "./export-view.ts";

/** Where the receipt starts in an HTML export: everything before it is what the receipt hashes. */
export const HTML_RECEIPT_MARKER = "<!-- codewhale-receipt -->";

let markdown: MarkdownIt | undefined;

type MarkdownItFactory = (options: MarkdownItOptions) => MarkdownIt;

/** Loads markdown-it once, on the first HTML export: no other command pays for it. */
async function loadMarkdown(): Promise<MarkdownIt> {
  if (markdown) return markdown;
  // Required, not imported: the bundle runs as a vm script (bin/codewhale.cjs), where a dynamic
  // import() cannot load a module; the bundle has `require`, source run by tsx does not.
  const load = typeof require === "function" ? require : createRequire(import.meta.url);
  const loaded = load("markdown-it") as MarkdownItFactory | { default: MarkdownItFactory };
  const createMarkdown = typeof loaded === "function" ? loaded : loaded.default;
  const { html, images, linkify, headings } = MARKDOWN_RULES;
  const md = createMarkdown({ html, linkify, typographer: false });
  if (!images) md.disable("image");
  // A heading in an answer could pass for a turn of the page (`### User`): kept as its text.
  if (!headings) md.disable(["heading", "lheading"]);
  md.validateLink = isSafeLink;
  markdown = md;
  return md;
}

/** A stored image's bytes as base64 by its SHA-256, or null when it cannot be read intact. */
export type ImageData = (sha256: string) => string | null;

export async function createHtmlRenderer(
  write: (text: string) => void,
  imageData: ImageData = () => null,
): Promise<ViewRenderer> {
  const md = await loadMarkdown();
  let turnOpen = false;
  const openTurn = () => {
    if (turnOpen) return;
    turnOpen = true;
    write('<section class="turn">\n');
  };
  return {
    begin(meta) {
      write(pageHead(meta));
    },
    item(item) {
      if (item.kind === "turn-end") {
        openTurn();
        write(`<footer class="usage">${escapeHtml(turnFooter(item))}</footer>\n</section>\n`);
        turnOpen = false;
        return;
      }
      openTurn();
      write(htmlItem(item, md, imageData));
    },
    end() {
      if (turnOpen) write("</section>\n");
      write("</main>\n");
    },
  };
}

function pageHead(meta: ExportMeta): string {
  const head = meta.head;
  const derived = `session=${head.sessionId}; view=${meta.view}; format=html; through-seq=${meta.throughSeq}; redacted=${meta.redacted}`;
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="codewhale-derived-view" content="${escapeHtml(derived)}">`,
    `<title>codewhale session ${escapeHtml(head.sessionId)}</title>`,
    `<style>${HTML_STYLE}</style>`,
    "</head>",
    "<body>",
    "<header>",
    `<h1>Session <code>${escapeHtml(head.sessionId)}</code></h1>`,
    `<p class="meta">${escapeHtml(`${head.provider}/${head.model}`)} · started ${escapeHtml(head.started)} · in <code>${escapeHtml(head.cwd)}</code></p>`,
    `<p class="derived">A derived view (${escapeHtml(meta.view)}, events 0–${meta.throughSeq}${meta.redacted ? ", secrets redacted" : ", not redacted"}) of the session log; the log is the record, and the receipt at the end ties this page to it.</p>`,
    "</header>",
    "<main>",
    "",
  ].join("\n");
}

function htmlItem(
  item: Exclude<ViewItem, { kind: "turn-end" }>,
  md: MarkdownIt,
  imageData: ImageData,
): string {
  switch (item.kind) {
    case "user": {
      const who = item.steering ? "User, while the turn ran" : "User";
      const blocked = item.blocked
        ? `<p class="blocked">Blocked, never sent: ${escapeHtml(item.blocked)}</p>`
        : "";
      const images = item.images.map((image, at) => htmlImage(image, at + 1, imageData)).join("");
      return `<div class="user" data-seq="${item.seq}"><div class="who">${who}</div><pre class="text">${escapeHtml(item.text)}</pre>${images}${blocked}</div>\n`;
    }
    case "text":
      return `<div class="assistant" data-seq="${item.seq}"><div class="who">Assistant</div><div class="markdown">${md.render(item.text)}</div></div>\n`;
    case "thinking":
      return `<details class="thinking" data-seq="${item.seq}"><summary>Thinking</summary><pre class="text">${escapeHtml(item.text)}</pre></details>\n`;
    case "tool-call":
      return toolCall(item);
    case "tool-result":
      return toolResult(item);
    case "web-search":
      return webSearchHtml(item);
    case "plan":
      return `<div class="assistant plan" data-seq="${item.seq}"><div class="who">Plan</div><div class="markdown">${md.render(item.plan)}</div></div>\n`;
    case "plan-decision":
      return `<p class="note plan-decision" data-seq="${item.seq}">${escapeHtml(item.line)}</p>\n`;
    case "note":
      return `<div class="note" data-seq="${item.seq}"><div class="who">Note from ${escapeHtml(item.source)}</div><pre class="text">${escapeHtml(item.text)}</pre></div>\n`;
    case "failed":
      return `<p class="failed" data-seq="${item.seq}">Request failed${item.willRetry ? " (retried)" : ""}: ${escapeHtml(item.error)}</p>\n`;
    case "compaction":
      return `<div class="note compaction" data-seq="${item.seq}"><div class="who">${escapeHtml(compactionLine(item))}</div><pre class="text">${escapeHtml(item.summary)}</pre></div>\n`;
    case "checkpoint":
    case "rewind":
      return `<p class="note ${item.kind}" data-seq="${item.seq}">${escapeHtml(item.line)}</p>\n`;
    case "subagent":
      return subagent(item, md);
  }
}

/** Each search with its results, then the cited sources; only http(s) URLs become links. */
function webSearchHtml(item: Extract<ViewItem, { kind: "web-search" }>): string {
  const link = (source: WebSource) => {
    const text = escapeHtml(source.title ?? source.url);
    const url = escapeHtml(source.url);
    return isSafeLink(source.url) && !source.url.trim().toLowerCase().startsWith("mailto:")
      ? `<a href="${url}" rel="noopener noreferrer">${text}</a>${source.title ? ` <span class="url">${url}</span>` : ""}`
      : text;
  };
  const list = (sources: WebSource[], tag: "ul" | "ol") =>
    sources.length === 0
      ? ""
      : `<${tag}>${sources.map((s) => `<li>${link(s)}</li>`).join("")}</${tag}>`;
  const searches = item.searches
    .map(
      (search) =>
        `<div class="who">${escapeHtml(search.headline)}</div>${list(search.sources, "ul")}`,
    )
    .join("");
  const cited =
    item.cited.length === 0 ? "" : `<div class="who">Sources cited</div>${list(item.cited, "ol")}`;
  return `<div class="web-search" data-seq="${item.seq}">${searches}${cited}</div>\n`;
}

/** A subagent's prompts carry no user images (its images would be in its own store). */
const NO_IMAGES: ImageData = () => null;

/** A subagent's own view in a section of its own, after its receipt line. */
function subagent(item: Extract<ViewItem, { kind: "subagent" }>, md: MarkdownIt): string {
  const body = item.items.map((child) =>
    child.kind === "turn-end"
      ? `<footer class="usage">${escapeHtml(turnFooter(child))}</footer>\n`
      : htmlItem(child, md, NO_IMAGES),
  );
  const holds = item.linkHolds ? "verified" : "broken";
  return [
    `<section class="subagent note" data-seq="${item.seq}" data-call="${escapeHtml(item.callId)}" data-session="${escapeHtml(item.sessionId)}" data-link="${holds}">\n`,
    `<div class="who">Subagent session <code>${escapeHtml(item.sessionId)}</code> (the call <code>${escapeHtml(item.callId)}</code>)</div>\n`,
    `<p class="child-receipt meta">${escapeHtml(subagentReceipt(item))}</p>\n`,
    ...body,
    "</section>\n",
  ].join("");
}

/**
 * A prompt's image embedded as a data: URL (the page stays self-contained; its CSP allows
 * `img-src data:` only), or, when the image store cannot give it intact, a line naming it.
 */
function htmlImage(image: ImageNote, number: number, imageData: ImageData): string {
  const label = escapeHtml(`Image ${number}: ${imageLabel(image)}, sha256 ${image.sha256}`);
  const data = imageData(image.sha256);
  if (data === null) return `<p class="image missing">${label} (not in the image store)</p>`;
  const src = `data:${escapeHtml(image.mediaType)};base64,${data}`;
  return `<figure class="image"><img src="${src}" alt="${label}"><figcaption>${label}</figcaption></figure>`;
}

function toolCall(item: Extract<ViewItem, { kind: "tool-call" }>): string {
  const decision = item.decision;
  const refused =
    decision.outcome === "allow"
      ? ""
      : ` <span class="refused">${escapeHtml(`${decision.outcome} by ${decision.by}${decision.reason ? `: ${decision.reason}` : ""}`)}</span>`;
  const rewritten = item.original
    ? ` <span class="rewritten">rewritten by ${escapeHtml(item.original.by)}</span>`
    : "";
  const parts = [
    `<div class="tool-call" data-seq="${item.seq}" data-call="${escapeHtml(item.callId)}">`,
    `<div class="title"><span class="kind">${escapeHtml(item.presentation.kind)}</span> ${escapeHtml(item.presentation.title)}${refused}${rewritten}</div>`,
    `<pre class="args">${escapeHtml(JSON.stringify(item.arguments, null, 2))}</pre>`,
  ];
  if (item.original) {
    const why = item.original.reason ? `: ${escapeHtml(item.original.reason)}` : "";
    parts.push(
      `<details class="original"><summary>Original arguments (before the rewrite${why})</summary><pre class="args">${escapeHtml(JSON.stringify(item.original.arguments, null, 2))}</pre></details>`,
    );
  }
  parts.push("</div>\n");
  return parts.join("");
}

function toolResult(item: Extract<ViewItem, { kind: "tool-result" }>): string {
  const parts = [
    `<div class="tool-result${item.isError ? " error" : ""}" data-seq="${item.seq}" data-call="${escapeHtml(item.callId)}">`,
    `<div class="summary">${escapeHtml(item.presentation.summary)}</div>`,
  ];
  if (item.diff) parts.push(diffHtml(item.diff.path, item.diff.oldText, item.diff.newText));
  parts.push(`<pre class="output">${escapeHtml(item.content)}</pre>`);
  const marker = truncationMarker(item);
  if (marker) parts.push(`<p class="truncated">${escapeHtml(marker)}</p>`);
  if (item.sandbox) parts.push(`<p class="sandbox">${escapeHtml(item.sandbox)}</p>`);
  parts.push("</div>\n");
  return parts.join("");
}

function diffHtml(path: string, oldText: string | null, newText: string): string {
  const lines = diffText(oldText, newText)
    .split("\n")
    .map((line) => {
      const kind = line.startsWith("-") ? "del" : "ins";
      return `<span class="${kind}">${escapeHtml(line)}</span>`;
    });
  return `<div class="diff"><div class="path">${escapeHtml(path)}</div><pre>${lines.join("")}</pre></div>`;
}

/** The receipt as the page shows it: after the marker, its JSON escaped in a <pre>. */
export function htmlReceipt(receiptJson: string): string {
  return `${HTML_RECEIPT_MARKER}\n<footer class="receipt"><h2>Receipt</h2><pre id="codewhale-receipt">${escapeHtml(receiptJson)}</pre></footer>\n</body>\n</html>\n`;
}

/** The page's end when there is no receipt (`sessions show` never writes HTML). */
export const HTML_END = "</body>\n</html>\n";

/** The receipt JSON read back from a page written by htmlReceipt, or null. */
export function readHtmlReceipt(tail: string): string | null {
  const match = /<pre id="codewhale-receipt">([^<]*)<\/pre>/.exec(tail);
  return match ? unescapeHtml(match[1]!) : null;
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => {
    const found = Object.entries(ESCAPES).find(([, value]) => value === entity);
    return found ? found[0] : entity;
  });
}
