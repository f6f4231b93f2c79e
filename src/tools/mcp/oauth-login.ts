// `codewhale mcp login NAME` / `mcp logout NAME` for a remote MCP server, through the SDK's
// client `auth`: the server is asked once (its 401 names its resource metadata and scope),
// then discovery, dynamic client registration and the authorization-code flow with PKCE, the
// redirect received by a one-shot loopback listener (oauth-callback.ts) and the tokens stored
// 0600 (oauth-store.ts). The caller opens the browser. Called by src/cli/mcp-auth-command.ts.
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { McpServerConfig } from "../../config/index.ts";
import { errorMessage, McpAuthError } from "../../errors.ts";
import { expandVars, unset } from "./expand-vars.ts";
import { listenForCallback } from "./oauth-callback.ts";
import { guardedOAuthFetch } from "./oauth-fetch.ts";
import { LoginAuthProvider, registeredRedirect } from "./oauth-provider.ts";
import { authFileFor, readAuth, removeAuth } from "./oauth-store.ts";

export interface LoginOptions {
  /** `$CODEWHALE_HOME/mcp-auth`. */
  authDir: string;
  /** Where `${VAR}` in the url comes from. */
  vars: Readonly<Record<string, string | undefined>>;
  /** Sends the user to the authorization page (a browser, or the URL printed). */
  openUrl(url: URL): void | Promise<void>;
  timeoutMs: number;
}

export type LoginOutcome = { kind: "authorized"; file: string } | { kind: "not-needed" };

export async function loginServer(
  name: string,
  server: McpServerConfig,
  options: LoginOptions,
): Promise<LoginOutcome> {
  const url = serverUrl(name, server, options.vars);
  const file = authFileFor(options.authDir, name, url);
  const fetchFn = guardedOAuthFetch(url);
  const { auth, extractWWWAuthenticateParams } = await import(
    "@modelcontextprotocol/sdk/client/auth.js"
  );
  const challenge = await ask(name, url, fetchFn);
  if (challenge.ok) return { kind: "not-needed" };
  const hints = extractWWWAuthenticateParams(challenge);
  const state = randomBytes(32).toString("base64url");
  const listener = await listenForCallback({
    state,
    timeoutMs: options.timeoutMs,
    ...loopbackPort(registeredRedirect(readAuth(file))),
  });
  let page: URL | undefined;
  const provider = new LoginAuthProvider({
    server: name,
    url,
    file,
    redirectUrl: listener.redirectUrl,
    state,
    onAuthorizationUrl: (target) => {
      page = target;
    },
  });
  const request = {
    serverUrl: url,
    fetchFn,
    ...(hints.resourceMetadataUrl ? { resourceMetadataUrl: hints.resourceMetadataUrl } : {}),
    ...(hints.scope ? { scope: hints.scope } : {}),
  };
  try {
    const first = await auth(provider, request);
    if (first !== "AUTHORIZED") {
      if (!page) throw new McpAuthError(`mcp login ${name}: the server gave no authorization page`);
      await options.openUrl(page);
      const code = await listener.code;
      await auth(provider, { ...request, authorizationCode: code });
    }
    if (!provider.authorized) throw new McpAuthError(`mcp login ${name}: no tokens were issued`);
    provider.commit();
    return { kind: "authorized", file };
  } catch (error) {
    if (error instanceof McpAuthError) throw error;
    throw new McpAuthError(`mcp login ${name}: ${firstLine(errorMessage(error))}`);
  } finally {
    listener.close();
  }
}

/** The sign-in `mcp login` stored for the server, for `mcp get`: its file and token expiry. */
export function storedLogin(
  name: string,
  server: McpServerConfig,
  authDir: string,
  vars: Readonly<Record<string, string | undefined>>,
): { file: string; expiresAt?: number } | undefined {
  if (server.url === undefined) return undefined;
  const url = expandVars(server.url, vars);
  if (!url.ok) return undefined;
  const file = authFileFor(authDir, name, url.value);
  const stored = readAuth(file);
  if (!stored?.tokens) return undefined;
  return { file, ...(stored.expiresAt ? { expiresAt: stored.expiresAt } : {}) };
}

/** Removes every stored auth file of server `name` (any origin); how many there were. */
export function logoutServer(name: string, authDir: string): number {
  let removed = 0;
  let entries: string[];
  try {
    entries = readdirSync(authDir);
  } catch {
    return 0;
  }
  const own = new RegExp(`^${name.replace(/[-]/g, "\\-")}-[0-9a-f]{16}\\.json$`);
  for (const entry of entries) {
    if (!own.test(entry)) continue;
    const file = join(authDir, entry);
    const stored = readAuth(file);
    if (stored && stored.server !== name) continue;
    if (removeAuth(file)) removed += 1;
  }
  return removed;
}

function serverUrl(
  name: string,
  server: McpServerConfig,
  vars: Readonly<Record<string, string | undefined>>,
): string {
  if (server.url === undefined) {
    throw new McpAuthError(`mcp login ${name}: it is a stdio server; only a url server signs in`);
  }
  if (Object.keys(server.headers).some((key) => /^authorization$/i.test(key))) {
    throw new McpAuthError(
      `mcp login ${name}: its headers set Authorization, so it is never sent OAuth tokens; remove that header to sign in`,
    );
  }
  const expanded = expandVars(server.url, vars);
  if (!expanded.ok) throw new McpAuthError(`mcp login ${name}: ${unset(expanded.missing, "url")}`);
  return expanded.value;
}

/** The server's answer to an unauthenticated initialize: a 401 may name what to ask for. */
async function ask(
  name: string,
  url: string,
  fetchFn: (url: string | URL, init?: RequestInit) => Promise<Response>,
): Promise<Response> {
  try {
    const response = await fetchFn(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "codewhale", version: "0" },
        },
      }),
      redirect: "manual",
    });
    await response.body?.cancel().catch(() => {});
    return response;
  } catch (error) {
    throw new McpAuthError(
      `mcp login ${name}: ${url} did not answer: ${firstLine(errorMessage(error))}`,
    );
  }
}

function loopbackPort(redirect: string | undefined): { port?: number } {
  if (!redirect) return {};
  try {
    const url = new URL(redirect);
    return url.hostname === "127.0.0.1" && url.port ? { port: Number(url.port) } : {};
  } catch {
    return {};
  }
}

function firstLine(text: string): string {
  return (text.split("\n", 1)[0] ?? "").slice(0, 300);
}
