// Where a remote MCP server's OAuth state lives: one JSON file per server name and URL origin
// under `$CODEWHALE_HOME/mcp-auth/` (directory 0700, files 0600, written whole through a temp
// file renamed over it), holding the registered client, the tokens with their expiry, and
// the discovery result. Nothing here is ever printed or logged. Used by oauth-provider.ts
// (sessions, refresh), oauth-login.ts (`mcp login`) and `mcp logout`.
import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { readOwnFile } from "../../config/own-file.ts";

/** The largest auth file read; a bigger one is treated as absent. */
const MAX_AUTH_FILE_BYTES = 1024 * 1024;

export interface StoredAuth {
  /** The server's name in [mcp_servers] and its URL's origin: the key of this file. */
  server: string;
  origin: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the access token expires (ms since the epoch), from `expires_in` at save time. */
  expiresAt?: number;
  discovery?: OAuthDiscoveryState;
}

/** The directory of every server's auth file. */
export function authDirOf(home: string): string {
  return join(home, "mcp-auth");
}

/**
 * The file of server `name` at `url`: keyed by name and origin, so a server whose URL moves to
 * another host never gets the tokens issued for the old one.
 */
export function authFileFor(dir: string, name: string, url: string): string {
  const origin = originOf(url);
  const key = createHash("sha256").update(`${name}\0${origin}`).digest("hex").slice(0, 16);
  return join(dir, `${name.replace(/[^A-Za-z0-9_-]/g, "_")}-${key}.json`);
}

export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * The stored state, or undefined when there is none, it is unreadable, or someone else could
 * have written it (not a regular file, another owner, group- or world-writable): as if absent.
 */
export function readAuth(file: string): StoredAuth | undefined {
  const text = readOwnFile(file, MAX_AUTH_FILE_BYTES);
  if (text === undefined) return undefined;
  try {
    const data = JSON.parse(text) as unknown;
    if (typeof data !== "object" || data === null) return undefined;
    const stored = data as Partial<StoredAuth>;
    if (typeof stored.server !== "string" || typeof stored.origin !== "string") return undefined;
    return stored as StoredAuth;
  } catch {
    return undefined;
  }
}

/**
 * Every token and client secret stored for any server: a session redacts them wherever they
 * appear in tool output (a server echoing its bearer token, a shell printing the file).
 */
export function storedAuthSecrets(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).filter((entry) => entry.endsWith(".json"));
  } catch {
    return [];
  }
  const values: string[] = [];
  for (const entry of entries) {
    const auth = readAuth(join(dir, entry));
    const secret = (auth?.client as { client_secret?: unknown } | undefined)?.client_secret;
    for (const value of [auth?.tokens?.access_token, auth?.tokens?.refresh_token, secret]) {
      if (typeof value === "string") values.push(value);
    }
  }
  return values;
}

/** Writes `auth` whole or not at all: the directory 0700, the file 0600. */
export function writeAuth(file: string, auth: StoredAuth): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temp, `${JSON.stringify(auth, null, 2)}\n`, { mode: 0o600, flag: "wx" });
  renameSync(temp, file);
}

/** Removes the file; false when there was none. */
export function removeAuth(file: string): boolean {
  if (!existsSync(file)) return false;
  rmSync(file, { force: true });
  return true;
}

/** The expiry of tokens saved now, from their `expires_in` (seconds). */
export function expiryOf(tokens: OAuthTokens, now = Date.now()): number | undefined {
  return typeof tokens.expires_in === "number" ? now + tokens.expires_in * 1000 : undefined;
}
