// An HTML page as Markdown of its main content: linkedom parses it, defuddle finds the content
// and writes the Markdown (the choice and its figures: the HTML-to-Markdown RFC). Built as its
// own chunk, dist/web.cjs (scripts/build.mjs), which web-content.ts imports only when web_fetch
// meets an HTML page, so no other run loads or parses it. Defuddle never fetches anything here.
import { Defuddle } from "defuddle/node";
import { parseHTML } from "linkedom";

export interface PageMarkdown {
  title: string;
  markdown: string;
}

/** Thrown when `selector` matches nothing on the page (the tool says so in one line). */
export class SelectorMissing extends Error {
  override readonly name = "SelectorMissing";
}

/** Converts `html` (of `url`, for its relative links); only `selector`'s element when given. */
export async function htmlToMarkdown(
  html: string,
  url: string,
  selector?: string,
): Promise<PageMarkdown> {
  const { document } = parseHTML(html);
  if (selector !== undefined && !matches(document, selector)) {
    throw new SelectorMissing(`the selector ${selector} matches nothing on the page`);
  }
  const refused: typeof fetch = () => Promise.reject(new Error("web_fetch converts only"));
  const page = await Defuddle(document as unknown as Document, url, {
    markdown: true,
    useAsync: false,
    fetch: refused,
    ...(selector !== undefined ? { contentSelector: selector } : {}),
  });
  return { title: page.title ?? "", markdown: page.content ?? "" };
}

function matches(document: ReturnType<typeof parseHTML>["document"], selector: string): boolean {
  try {
    return document.querySelector(selector) !== null;
  } catch {
    throw new SelectorMissing(`${selector} is not a CSS selector`);
  }
}
