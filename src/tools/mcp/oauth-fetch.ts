// The fetch for an MCP server's OAuth requests (all but those to the MCP endpoint itself): a
// request that would carry credentials in plain text off this machine is refused before it is
// made, and an answer is read to at most 256 KiB (endless metadata is one line, not a hang);
// also the check of the page a browser is sent to. Used by oauth-provider.ts and oauth-login.ts.
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

/** The largest OAuth response read (metadata, registration, tokens). */
export const MAX_OAUTH_RESPONSE_BYTES = 256 * 1024;

/** A refused OAuth request or response: its message is the one line the user sees. */
export class OAuthRequestProblem extends Error {
  override readonly name = "OAuthRequestProblem";
}

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** Whether `url` may carry credentials: https, or http to this machine. */
export function isSafeOAuthUrl(url: URL): boolean {
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" && LOOPBACK.has(url.hostname);
}

/** Why a browser must not be sent to `url`, or undefined when it may. */
export function authorizationPageProblem(url: URL): string | undefined {
  if (isSafeOAuthUrl(url)) return undefined;
  return `the authorization page ${shortUrl(url)} is not https and not on this machine; not opened`;
}

/** `base` with the checks above for every request not to `mcpUrl`. */
export function guardedOAuthFetch(mcpUrl: string, base: FetchLike = fetch): FetchLike {
  const endpoint = withoutHash(mcpUrl);
  return async (input, init) => {
    const url = new URL(String(input));
    if (withoutHash(url.href) === endpoint) return base(input, init);
    if (!isSafeOAuthUrl(url)) {
      throw new OAuthRequestProblem(
        `refused an OAuth request to ${shortUrl(url)}: not https and not on this machine`,
      );
    }
    const response = await base(input, init);
    return bounded(response, url);
  };
}

/** The response with its body read now, or a problem when it is larger than allowed. */
async function bounded(response: Response, url: URL): Promise<Response> {
  const tooLarge = () =>
    new OAuthRequestProblem(
      `the OAuth response of ${shortUrl(url)} is larger than ${MAX_OAUTH_RESPONSE_BYTES / 1024} KiB; not read`,
    );
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MAX_OAUTH_RESPONSE_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_OAUTH_RESPONSE_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = response.status === 204 || response.status === 304 ? null : Buffer.concat(chunks);
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function withoutHash(url: string): string {
  const parsed = new URL(url);
  parsed.hash = "";
  return parsed.href;
}

/** The URL without its query (which may carry a state or code) and bounded in length. */
function shortUrl(url: URL): string {
  const text = `${url.protocol}//${url.host}${url.pathname}`;
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
