// The SDK's OAuthClientProvider for one remote MCP server over its auth file (oauth-store.ts).
// Session mode uses only what `mcp login` stored (the SDK sends and, on a 401, refreshes the
// token) and records "needs login" where the browser would be needed, never opening one.
// Login mode registers a client for the loopback redirect and keeps the PKCE verifier in
// memory. Used by transport.ts (sessions, `mcp list/get`, doctor) and oauth-login.ts.
import { randomBytes } from "node:crypto";
import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { authorizationPageProblem, OAuthRequestProblem } from "./oauth-fetch.ts";
import {
  expiryOf,
  originOf,
  readAuth,
  removeAuth,
  type StoredAuth,
  writeAuth,
} from "./oauth-store.ts";

/** Thrown where a session would need the user: the server needs `codewhale mcp login`. */
export class NeedsLoginProblem extends Error {
  override readonly name = "NeedsLoginProblem";
}

export interface ProviderOptions {
  server: string;
  url: string;
  file: string;
}

export interface LoginOptions extends ProviderOptions {
  /** The loopback URL the authorization server redirects to. */
  redirectUrl: string;
  state: string;
  /** Called with the page the user must visit (checked: https, or http on this machine). */
  onAuthorizationUrl(url: URL): void;
}

const CLIENT_NAME = "codewhale";

function clientMetadataFor(redirectUrl: string): OAuthClientMetadata {
  return {
    client_name: CLIENT_NAME,
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
}

/** The line for a server that answered 401 but whose discovery found no OAuth metadata. */
export const NO_OAUTH =
  "it answered 401 and offers no OAuth sign-in (no authorization server metadata); give it a token in headers";

/** Discovery found no OAuth metadata at all: the 401 is not an OAuth challenge. */
function offersNoOAuth(discovery: OAuthDiscoveryState): boolean {
  return (
    discovery.authorizationServerMetadata === undefined && discovery.resourceMetadata === undefined
  );
}

/** The redirect URI a stored client was registered with, if any. */
export function registeredRedirect(stored: StoredAuth | undefined): string | undefined {
  const uris = (stored?.client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
  return Array.isArray(uris) && typeof uris[0] === "string" ? uris[0] : undefined;
}

/**
 * A session's provider: stored state only; `needsLogin` once the browser would be needed.
 * Nothing is written for a server `mcp login` never signed in to.
 */
export class SessionAuthProvider implements OAuthClientProvider {
  needsLogin = false;
  private discovered: OAuthDiscoveryState | undefined;

  constructor(private readonly options: ProviderOptions) {}

  private load(): StoredAuth {
    return (
      readAuth(this.options.file) ?? {
        server: this.options.server,
        origin: originOf(this.options.url),
      }
    );
  }

  private save(change: (auth: StoredAuth) => StoredAuth): void {
    const stored = readAuth(this.options.file);
    if (stored) writeAuth(this.options.file, change(stored));
  }

  get redirectUrl(): string {
    return registeredRedirect(this.load()) ?? "http://127.0.0.1/callback";
  }

  get clientMetadata(): OAuthClientMetadata {
    return clientMetadataFor(this.redirectUrl);
  }

  state(): string {
    return randomBytes(16).toString("base64url");
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const client = this.load().client;
    if (client) return client;
    return this.needLogin();
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.save((auth) => ({ ...auth, client }));
  }

  tokens(): OAuthTokens | undefined {
    return this.load().tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    const expiresAt = expiryOf(tokens);
    this.save((auth) => ({ ...auth, tokens, ...(expiresAt ? { expiresAt } : {}) }));
  }

  redirectToAuthorization(): void {
    this.needsLogin = true;
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    return this.needLogin();
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "verifier") return;
    if (scope === "all") {
      removeAuth(this.options.file);
      return;
    }
    this.save((auth) => {
      const next = { ...auth };
      if (scope === "client") delete next.client;
      if (scope === "discovery") delete next.discovery;
      if (scope === "tokens") {
        delete next.tokens;
        delete next.expiresAt;
      }
      return next;
    });
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    if (offersNoOAuth(discovery)) throw new OAuthRequestProblem(NO_OAUTH);
    this.discovered = discovery;
    this.save((auth) => ({ ...auth, discovery }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.load().discovery ?? this.discovered;
  }

  private needLogin(): never {
    this.needsLogin = true;
    throw new NeedsLoginProblem("needs authorization");
  }
}

/**
 * `mcp login`'s provider: everything in memory until `commit()` writes the client, tokens and
 * discovery to the auth file. A stored client is reused only when it was registered with this
 * redirect URL; stored tokens and discovery are not (a login discovers afresh and asks the user).
 */
export class LoginAuthProvider implements OAuthClientProvider {
  private client: OAuthClientInformationMixed | undefined;
  private savedTokens: OAuthTokens | undefined;
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;

  constructor(private readonly options: LoginOptions) {
    const stored = readAuth(options.file);
    if (registeredRedirect(stored) === options.redirectUrl) this.client = stored?.client;
  }

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return clientMetadataFor(this.options.redirectUrl);
  }

  state(): string {
    return this.options.state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.client = client;
  }

  tokens(): OAuthTokens | undefined {
    return this.savedTokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.savedTokens = tokens;
  }

  get authorized(): boolean {
    return this.savedTokens !== undefined;
  }

  redirectToAuthorization(url: URL): void {
    const problem = authorizationPageProblem(url);
    if (problem) throw new OAuthRequestProblem(problem);
    this.options.onAuthorizationUrl(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error("no PKCE code verifier was saved");
    return this.verifier;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "client") this.client = undefined;
    if (scope === "all" || scope === "tokens") this.savedTokens = undefined;
    if (scope === "all" || scope === "discovery") this.discovery = undefined;
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    if (offersNoOAuth(discovery)) throw new OAuthRequestProblem(NO_OAUTH);
    this.discovery = discovery;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  /** Writes what the login obtained (0600). Only after the code was exchanged. */
  commit(): void {
    if (!this.savedTokens) throw new Error("commit before the tokens were obtained");
    const expiresAt = expiryOf(this.savedTokens);
    writeAuth(this.options.file, {
      server: this.options.server,
      origin: originOf(this.options.url),
      ...(this.client ? { client: this.client } : {}),
      tokens: this.savedTokens,
      ...(expiresAt ? { expiresAt } : {}),
      ...(this.discovery ? { discovery: this.discovery } : {}),
    });
  }
}
