// Markdown a model or a tool wrote, made safe to put in the Markdown export under the exports'
// rules (export-safety.ts): `neutralMarkdown` keeps an answer's formatting but escapes raw HTML,
// turns images into plain links, defuses links to other schemes and any heading (so nothing
// passes for a turn heading); `literalMarkdown` makes text (prompts, thinking) plain text.
import { isSafeLink } from "./export-safety.ts";

/** A code fence opening at the left margin, where it is always a top-level block. */
const FENCE = /^(`{3,}|~{3,})(.*)$/;
/** What may precede a block's own start on a line: indentation, `>` and list markers. */
const CONTAINERS = /^(?:[ \t]*(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))*[ \t]*/;
const PUNCTUATION = /[!-/:-@[-`{-~]/;

/**
 * The answer's Markdown, its top-level fences verbatim (one left open is closed), every other
 * line neutralised. A line wrongly taken for plain text is only escaped more than needed.
 */
export function neutralMarkdown(text: string): string {
  const out: string[] = [];
  let fence: { marks: string } | undefined;
  for (const line of text.split("\n")) {
    if (fence) {
      out.push(line);
      if (closes(line, fence.marks)) fence = undefined;
      continue;
    }
    const open = FENCE.exec(line);
    if (open && !(open[1]?.startsWith("`") && open[2]?.includes("`"))) {
      fence = { marks: open[1] ?? "```" };
      out.push(line);
    } else out.push(neutralLine(line));
  }
  if (fence) out.push(fence.marks);
  return out.join("\n");
}

function closes(line: string, marks: string): boolean {
  const match = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
  const run = match?.[1] ?? "";
  return run[0] === marks[0] && run.length >= marks.length;
}

/** One line outside a fence: no heading, setext underline, HTML, image or unsafe link. */
function neutralLine(line: string): string {
  const lead = CONTAINERS.exec(line)?.[0] ?? "";
  const rest = line.slice(lead.length);
  const block = /^(?:#|=+[ \t]*$|-+[ \t]*$)/.test(rest) ? `\\${rest}` : rest;
  return lead + neutralInline(block);
}

/** Escapes `<`, `![` and `]:`, and `](` before a destination that is not http(s)/mailto. */
function neutralInline(text: string): string {
  let out = "";
  for (let at = 0; at < text.length; at++) {
    const char = text[at] ?? "";
    const next = text[at + 1] ?? "";
    if (char === "\\" && PUNCTUATION.test(next)) {
      out += char + next;
      at += 1;
    } else if (char === "`") {
      const span = codeSpan(text, at);
      out += text.slice(at, span);
      at = span - 1;
    } else if (char === "<" || (char === "!" && next === "[")) out += `\\${char}`;
    else if (char === "]" && next === ":") out += "]\\";
    else if (char === "]" && next === "(" && !isSafeLink(destination(text, at + 2))) {
      out += "]\\";
    } else out += char;
  }
  return out;
}

/** Where the code span opening at `at` ends (past its closing run), or past the opening run. */
function codeSpan(text: string, at: number): number {
  const run = /^`+/.exec(text.slice(at))?.[0] ?? "`";
  const closing = new RegExp(`(?<!\`)${run}(?!\`)`, "g");
  closing.lastIndex = at + run.length;
  const found = closing.exec(text);
  return found ? found.index + run.length : at + run.length;
}

/** A link's destination on this line (what follows `(`), `<…>` unwrapped; "" when none is. */
function destination(text: string, at: number): string {
  const rest = text.slice(at).replace(/^[ \t]+/, "");
  if (rest.startsWith("<")) return rest.slice(1);
  return /^\S+/.exec(rest)?.[0] ?? "";
}

/** Plain text as Markdown that renders as that text: every markup character escaped. */
export function literalMarkdown(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      const escaped = line.replace(/[\\`*_[\]<>#!&|~]/g, (char) => `\\${char}`);
      return escaped.replace(/^([ \t]*)([-+=])/, "$1\\$2").replace(/^([ \t]*\d+)([.)])/, "$1\\$2");
    })
    .join("\n");
}
