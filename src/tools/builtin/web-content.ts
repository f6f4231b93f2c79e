// What web_fetch makes of a fetched body: HTML as Markdown (html-markdown.ts, its own chunk,
// imported here on first use), text, JSON, XML and the like as text in their charset, and
// anything else refused in one line. A body without a content type is judged by its bytes.
import { ToolProblem } from "./problem.ts";

/** The body as text for the model, and whether it was converted from HTML. */
interface PageText {
  text: string;
  title?: string;
}

const TEXT_TYPES = [
  /^text\//,
  /^application\/(?:json|ld\+json|xml|javascript|ecmascript|x-javascript|yaml|x-yaml|toml|x-sh|graphql|sql|x-ndjson)$/,
  /^application\/[\w.-]+\+(?:json|xml|yaml)$/,
];

/** The text of `body` for the content type `contentType`; throws a ToolProblem for binaries. */
export async function pageText(
  body: Buffer,
  contentType: string,
  url: URL,
  selector: string | undefined,
): Promise<PageText> {
  const [mediaType = "", ...params] = contentType
    .toLowerCase()
    .split(";")
    .map((p) => p.trim());
  const kind = kindOf(mediaType, body);
  if (kind === "binary") {
    const what = mediaType || "binary data without a content type";
    throw new ToolProblem(
      `web_fetch: ${url.href} is ${what}, not text; web_fetch reads only text and HTML`,
    );
  }
  const text = decode(body, charsetOf(params));
  if (kind === "text") return { text };
  const { htmlToMarkdown, SelectorMissing } = await import("./html-markdown.ts");
  try {
    const page = await htmlToMarkdown(text, url.href, selector);
    return { text: page.markdown, title: page.title };
  } catch (error) {
    if (error instanceof SelectorMissing) throw new ToolProblem(`web_fetch: ${error.message}`);
    throw error;
  }
}

function kindOf(mediaType: string, body: Buffer): "html" | "text" | "binary" {
  if (mediaType === "text/html" || mediaType === "application/xhtml+xml") return "html";
  if (TEXT_TYPES.some((type) => type.test(mediaType))) return "text";
  if (mediaType !== "" && mediaType !== "application/octet-stream") return "binary";
  return sniff(body);
}

/** No useful content type: NUL bytes mean binary, a leading tag HTML, anything else text. */
function sniff(body: Buffer): "html" | "text" | "binary" {
  const head = body.subarray(0, 8192);
  if (head.includes(0)) return "binary";
  const start = head.toString("latin1").trimStart().slice(0, 64).toLowerCase();
  return start.startsWith("<!doctype html") || start.startsWith("<html") ? "html" : "text";
}

function charsetOf(params: readonly string[]): string {
  const charset = params.find((param) => param.startsWith("charset="));
  return charset ? charset.slice("charset=".length).replace(/^"|"$/g, "") : "utf-8";
}

/** The text in its declared charset; an unknown one is read as UTF-8. */
function decode(body: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}
