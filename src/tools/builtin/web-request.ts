// web_fetch's HTTP: one GET per hop to the address web-address.ts checked (the connection is
// pinned to it through `lookup`, so a second DNS answer cannot swap it), redirects followed by
// hand on the same host (each hop checked again), a redirect to another host reported instead
// of followed (its permission is asked when the model fetches it), the body decompressed and
// read to at most `maxBytes`, and one deadline for the whole fetch.
import type { IncomingMessage } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { VERSION } from "../../version.ts";
import { ToolProblem } from "./problem.ts";
import type { CheckedAddress, WebReach } from "./web-address.ts";
import { checkedAddress, urlHost } from "./web-address.ts";

export interface FetchLimits {
  /** The most bytes read of a body (after decompression); the rest is cut. */
  maxBytes: number;
  /** The deadline of the whole fetch, every hop included. */
  timeoutMs: number;
  maxRedirects: number;
}

/** A page that answered, its body read (to the cap). */
export interface FetchedPage {
  kind: "page";
  url: URL;
  status: number;
  statusText: string;
  contentType: string;
  body: Buffer;
  /** True when the body was longer than `maxBytes` and was cut there. */
  truncated: boolean;
}

/** A redirect to another host: not followed, the model fetches it (and its permission is asked). */
interface OtherHostRedirect {
  kind: "redirect";
  url: URL;
  status: number;
  location: URL;
}

const USER_AGENT = `codewhale/${VERSION} (web_fetch; +https://github.com/codewhale)`;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** GETs `start`, following same-host redirects; throws a ToolProblem (one line) when refused. */
export async function fetchPage(
  start: URL,
  reach: WebReach,
  limits: FetchLimits,
  cancel: AbortSignal,
): Promise<FetchedPage | OtherHostRedirect> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const signal = AbortSignal.any([cancel, deadline]);
  try {
    return await followHops(start, reach, limits, signal);
  } catch (error) {
    if (deadline.aborted && !cancel.aborted) {
      throw new ToolProblem(
        `web_fetch: ${start.href} did not answer within ${limits.timeoutMs / 1000} s`,
      );
    }
    throw error;
  }
}

async function followHops(
  start: URL,
  reach: WebReach,
  limits: FetchLimits,
  signal: AbortSignal,
): Promise<FetchedPage | OtherHostRedirect> {
  let url = start;
  for (let hop = 0; ; hop++) {
    requireWebUrl(url);
    const address = await checkedAddress(url, reach, signal);
    const response = await get(url, address, signal);
    const location = response.headers.location;
    const status = response.statusCode ?? 0;
    if (!REDIRECTS.has(status) || !location) return readPage(url, response, limits);
    response.destroy();
    if (hop >= limits.maxRedirects) {
      throw new ToolProblem(
        `web_fetch: ${start.href} redirected more than ${limits.maxRedirects} times`,
      );
    }
    const next = new URL(location, url);
    requireWebUrl(next);
    if (!sameSite(url, next)) {
      // A refused target is refused here, whichever host asks for it.
      await checkedAddress(next, reach, signal);
      return { kind: "redirect", url, status, location: next };
    }
    url = next;
  }
}

/** Only http and https, and no credentials in the URL (they would leave in the request). */
export function requireWebUrl(url: URL): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ToolProblem(`web_fetch reads only http:// and https:// URLs, not ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new ToolProblem("web_fetch refuses URLs with a user name or password in them");
  }
}

/** The same host, or the host with or without `www.` (http to https included). */
function sameSite(from: URL, to: URL): boolean {
  const bare = (url: URL) => urlHost(url).replace(/^www\./, "");
  return bare(from) === bare(to);
}

function get(url: URL, address: CheckedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: "GET",
      agent: false,
      signal,
      lookup: pinnedLookup(address),
      headers: {
        "user-agent": USER_AGENT,
        accept: "text/html, text/markdown, text/plain, application/json, */*;q=0.5",
        "accept-encoding": "gzip, deflate, br",
      },
    });
    outgoing.once("response", resolve);
    outgoing.once("error", (error) =>
      reject(signal.aborted ? error : new ToolProblem(`web_fetch: ${url.href}: ${error.message}`)),
    );
    outgoing.end();
  });
}

/** Connects to the checked address whatever the name resolves to by then (no rebinding). */
function pinnedLookup(checked: CheckedAddress): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [{ address: checked.address, family: checked.family }]);
    else callback(null, checked.address, checked.family);
  };
}

async function readPage(
  url: URL,
  response: IncomingMessage,
  limits: FetchLimits,
): Promise<FetchedPage> {
  const { body, truncated } = await readCapped(decoded(response), limits.maxBytes);
  return {
    kind: "page",
    url,
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? "",
    contentType: response.headers["content-type"] ?? "",
    body,
    truncated,
  };
}

/** The body without its content encoding (gzip, deflate, br); unknown encodings as sent. */
function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return response;
  response.once("error", (error) => decoder.destroy(error));
  decoder.once("close", () => response.destroy());
  return response.pipe(decoder);
}

/** Reads at most `max` bytes, then stops reading (the connection is closed). */
async function readCapped(stream: Readable, max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream) {
      const bytes = chunk as Buffer;
      if (size + bytes.length > max) {
        chunks.push(bytes.subarray(0, max - size));
        truncated = true;
        break;
      }
      chunks.push(bytes);
      size += bytes.length;
    }
  } finally {
    stream.destroy();
  }
  return { body: Buffer.concat(chunks), truncated };
}
