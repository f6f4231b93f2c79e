// The rules every derived export applies to what a model or a tool wrote, so the file can
// neither call out nor pass for codewhale's own structure: no raw HTML, no image that loads,
// links only to http(s) and mailto, no heading (a model's `### User` is no turn). export-html.ts
// hands them to markdown-it; export-md.ts applies them to the Markdown it writes
// (markdown-neutral.ts).

/**
 * The markdown-it options of both exports: raw HTML off, images off, no bare-URL links, and
 * headings off (ATX `### User` and setext `User⏎====` stay the text they are).
 */
export const MARKDOWN_RULES = {
  html: false,
  images: false,
  linkify: false,
  headings: false,
} as const;

/** True for a link destination an export may keep: `http:`, `https:` or `mailto:`. */
export function isSafeLink(url: string): boolean {
  return /^(https?:|mailto:)/i.test(url.trim());
}
