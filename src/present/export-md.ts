// The Markdown rendering of a view (export-view.ts), streamed item by item to a sink: front
// matter saying it is a derived view, prompts and thinking as quoted plain text, answers as
// Markdown under the exports' rules (markdown-neutral.ts), tool calls and results in fences
// longer than any backtick run inside, a footer per turn. Only codewhale writes headings.
// Called by export-render.ts and `sessions show --view`.

import { imageSize } from "../session/images.ts";
import type { WebSource } from "../session/web-search.ts";
import type { ExportMeta, ViewRenderer } from "./export-render-types.ts";
import { isSafeLink } from "./export-safety.ts";
import type { ImageNote, ViewItem } from "./export-view.ts";
import { formatCostDetail, formatCount, formatTokens, plural } from "./format.ts";
import { literalMarkdown, neutralMarkdown } from "./markdown-neutral.ts";

export function createMarkdownRenderer(write: (text: string) => void): ViewRenderer {
  return {
    begin(meta) {
      write(frontMatter(meta));
    },
    item(item) {
      write(markdownItem(item));
    },
    end() {},
  };
}

function frontMatter(meta: ExportMeta): string {
  const head = meta.head;
  const lines = [
    "---",
    "codewhale_export: derived view (the session log is the record; the receipt ties this file to it)",
    `session: ${head.sessionId}`,
    `view: ${meta.view}`,
    `format: ${meta.format}`,
    `through_seq: ${meta.throughSeq}`,
    `redacted: ${meta.redacted}`,
    `model: ${yamlText(`${head.provider}/${head.model}`)}`,
    `started: ${yamlText(head.started)}`,
    "---",
    "",
    `# Session ${head.sessionId}`,
    "",
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * A prompt's images as lines after its text, each named by its hash: the image itself is in
 * the session's image store (`<id>.images/<sha256>`), which an HTML export embeds.
 */
function imageLines(images: readonly ImageNote[]): string {
  return images
    .map((image, at) => `\n\n*Image ${at + 1}: ${imageLabel(image)}, sha256 ${image.sha256}*`)
    .join("");
}

/** `image/png, 70 B`. */
export function imageLabel(image: ImageNote): string {
  return `${image.mediaType}, ${imageSize(image.bytes)}`;
}

/** One item as Markdown, ending with a blank line. */
export function markdownItem(item: ViewItem): string {
  switch (item.kind) {
    case "user": {
      const who = item.steering ? "User (while the turn ran)" : "User";
      const blocked = item.blocked ? `\n\n*Blocked, never sent: ${inline(item.blocked)}*` : "";
      return `### ${who}\n\n${quote(item.text)}${imageLines(item.images)}${blocked}\n\n`;
    }
    case "text":
      return `**Assistant**\n\n${neutralMarkdown(item.text)}\n\n`;
    case "thinking":
      return `**Thinking**\n\n${quote(item.text)}\n\n`;
    case "tool-call":
      return toolCall(item);
    case "tool-result":
      return toolResult(item);
    case "web-search":
      return webSearchMarkdown(item);
    case "note":
      return `*Note from ${inline(item.source)}:*\n\n${quote(item.text)}\n\n`;
    case "plan":
      return `**Plan**\n\n${neutralMarkdown(item.plan)}\n\n`;
    case "plan-decision":
      return `*${inline(item.line)}*\n\n`;
    case "failed":
      return `*Request failed${item.willRetry ? " (retried)" : ""}: ${inline(item.error)}*\n\n`;
    case "compaction":
      return `---\n\n*${inline(compactionLine(item))}*\n\n${quote(item.summary)}\n\n`;
    case "checkpoint":
      return `*${inline(item.line)}*\n\n`;
    case "rewind":
      return `---\n\n**${inline(item.line)}**\n\n`;
    case "turn-end":
      return `---\n\n*${inline(turnFooter(item))}*\n\n`;
    case "subagent":
      return subagent(item);
  }
}

/** Each search and its results as a list, then the cited sources, numbered; links only to http(s). */
function webSearchMarkdown(item: Extract<ViewItem, { kind: "web-search" }>): string {
  const link = (source: WebSource) =>
    isSafeLink(source.url) && !/[\s()<>]/.test(source.url)
      ? `[${inline(source.title ?? source.url)}](${source.url})`
      : inline(source.title ? `${source.title} — ${source.url}` : source.url);
  const parts = item.searches.map(
    (search) =>
      `*${inline(search.headline)}*\n\n${search.sources.map((source) => `- ${link(source)}`).join("\n")}`,
  );
  if (item.cited.length > 0) {
    const cited = item.cited.map((source, i) => `${i + 1}. ${link(source)}`).join("\n");
    parts.push(`**Sources cited**\n\n${cited}`);
  }
  return `${parts.map((part) => part.trim()).join("\n\n")}\n\n`;
}

/**
 * What an export says of a subagent's log: how far it was read, its last line's hash and
 * whether the parent's link names that hash, the SHA-256 of the bytes read, its cost.
 */
export function subagentReceipt(item: Extract<ViewItem, { kind: "subagent" }>): string {
  const { link, log } = item;
  if (!log) {
    return `its log could not be read (${item.error ?? "unknown"}); the parent's link names seq ${link.seq} with hash ${link.h}`;
  }
  const holds = item.linkHolds
    ? "the hash the parent's result links (link verified)"
    : `LINK BROKEN: the parent's result links seq ${link.seq} with hash ${link.h}`;
  return [
    `its own log through seq ${log.lastSeq}, last line hash ${log.chainHead}: ${holds}`,
    `${plural(log.bytes, "byte")} read, SHA-256 ${log.sha256}`,
    formatCostDetail(item.cost),
  ].join(" · ");
}

/** A subagent's own view, quoted under its heading, between its receipt line and its end. */
function subagent(item: Extract<ViewItem, { kind: "subagent" }>): string {
  const head = `#### Subagent session ${code(item.sessionId)} (the call ${code(item.callId)})`;
  const body = item.items.map(markdownItem).join("").trimEnd();
  const quoted =
    body === ""
      ? ""
      : `${body
          .split("\n")
          .map((line) => (line === "" ? ">" : `> ${line}`))
          .join("\n")}\n\n`;
  return `${head}\n\n*${inline(subagentReceipt(item))}*\n\n${quoted}*End of subagent session ${inline(item.sessionId)}*\n\n`;
}

/** "Context compacted (auto): about 17,000 → 4,000 tokens · summary by p/m · $0.0012". */
export function compactionLine(item: Extract<ViewItem, { kind: "compaction" }>): string {
  return [
    `Context compacted (${item.trigger}): about ${formatCount(item.tokensBefore)} → ${formatCount(item.tokensAfter)} tokens; the model read this summary in place of what came before`,
    `summary by ${item.model}`,
    formatCostDetail(item.cost),
  ].join(" · ");
}

/** "turn 1 completed · 2 steps · 1.2k in, 80 out · $0.0123". */
export function turnFooter(item: Extract<ViewItem, { kind: "turn-end" }>): string {
  const usage = item.usage;
  const cache = usage.cache_read > 0 ? `, ${formatTokens(usage.cache_read)} cache read` : "";
  return [
    `turn ${formatCount(item.turn + 1)} ${item.reason}${item.error ? `: ${item.error}` : ""}`,
    plural(item.steps, "step"),
    `${formatTokens(usage.input)} in, ${formatTokens(usage.output)} out${cache}`,
    formatCostDetail(item.cost),
  ].join(" · ");
}

function toolCall(item: Extract<ViewItem, { kind: "tool-call" }>): string {
  const decision = item.decision;
  const refused = decision.outcome === "allow" ? "" : ` (${decision.outcome} by ${decision.by})`;
  const parts = [
    `**Tool call** ${code(item.presentation.title)}${refused}`,
    fence(JSON.stringify(item.arguments, null, 2), "json"),
  ];
  if (item.original) {
    const why = item.original.reason ? `: ${inline(item.original.reason)}` : "";
    parts.push(`*Rewritten by ${inline(item.original.by)}${why}; the model asked for:*`);
    parts.push(fence(JSON.stringify(item.original.arguments, null, 2), "json"));
  }
  return `${parts.join("\n\n")}\n\n`;
}

function toolResult(item: Extract<ViewItem, { kind: "tool-result" }>): string {
  const status = item.isError ? "error" : "result";
  const parts = [`**Tool ${status}** ${code(item.presentation.summary)}`];
  if (item.diff) parts.push(fence(diffText(item.diff.oldText, item.diff.newText), "diff"));
  parts.push(fence(item.content, ""));
  const marker = truncationMarker(item);
  if (marker) parts.push(`*${marker}*`);
  if (item.sandbox) parts.push(`*${inline(item.sandbox)}*`);
  return `${parts.join("\n\n")}\n\n`;
}

/** What a result's markers say: cut by the output policy, or never run to completion. */
export function truncationMarker(item: Extract<ViewItem, { kind: "tool-result" }>): string {
  const notes: string[] = [];
  if (item.truncated) {
    const { originalBytes, deliveredBytes } = item.truncated;
    notes.push(
      `truncated by the output policy: ${formatCount(deliveredBytes)} of ${plural(originalBytes, "byte")} delivered`,
    );
  }
  if (item.interrupted) notes.push("interrupted: the call never ran to completion");
  return notes.join("; ");
}

/** The replaced text as removed lines, the new text as added lines. */
export function diffText(oldText: string | null, newText: string): string {
  const removed = oldText === null ? [] : oldText.split("\n").map((line) => `-${line}`);
  const added = newText.split("\n").map((line) => `+${line}`);
  return [...removed, ...added].join("\n");
}

/** A fenced block whose fence is longer than any run of backticks in the text. */
function fence(text: string, info: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const marks = "`".repeat(Math.max(3, longest + 1));
  return `${marks}${info}\n${text}\n${marks}`;
}

/** An inline code span that holds any text on one line. */
function code(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const marks = "`".repeat(longest + 1);
  return `${marks} ${flat} ${marks}`;
}

/** Each line quoted, every markup character escaped so the text stays text. */
function quote(text: string): string {
  return literalMarkdown(text)
    .split("\n")
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");
}

/** Text on one line with Markdown's emphasis and markup characters escaped. */
function inline(text: string): string {
  return text.replace(/\s+/g, " ").replace(/[\\`*_[\]<>#|~!&]/g, (char) => `\\${char}`);
}

function yamlText(text: string): string {
  return JSON.stringify(text);
}
