// An OAuth-protected MCP server for tests, in the test's process on 127.0.0.1: the SDK's
// mcpAuthRouter over a small in-memory OAuthServerProvider (registration, PKCE codes that
// redirect at once, refresh with rotation) and a streamable HTTP endpoint behind
// requireBearerAuth with tools `whoami` and `leak` (echoes the bearer token). `expireAll()`,
// `revokeRefresh()` and `hostile` (huge metadata, an off-machine authorization page) for tests.
import { randomBytes, randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from "@modelcontextprotocol/sdk/server/auth/provider.js";
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type {
  OAuthClientInformationFull,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";

export interface OAuthTestServer {
  /** The MCP endpoint, `http://127.0.0.1:PORT/mcp`. */
  url: string;
  /** Every access token issued, in order (the test looks for them where they must not be). */
  issued: string[];
  refreshes: number;
  /** Every access token presented to the MCP endpoint. */
  presented: string[];
  expireAll(): void;
  /** Refresh tokens stop working: a refresh is refused with invalid_grant. */
  revokeRefresh(): void;
  stop(): Promise<void>;
}

export interface OAuthTestOptions {
  hostile?: "huge-metadata" | "offsite-authorize";
}

interface Grant {
  client: string;
  challenge: string;
  redirectUri: string;
}

class TestProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly codes = new Map<string, Grant>();
  readonly access = new Map<string, { client: string; expiresAt: number }>();
  readonly refresh = new Map<string, string>();
  issued: string[] = [];
  refreshes = 0;
  refreshWorks = true;

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (id) => this.clients.get(id),
      registerClient: (client) => {
        const full = { ...client, client_id: randomUUID(), client_id_issued_at: now() };
        this.clients.set(full.client_id, full);
        return full;
      },
    };
  }

  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: { redirect(status: number, url: string): void },
  ): Promise<void> {
    const code = randomBytes(16).toString("hex");
    this.codes.set(code, {
      client: client.client_id,
      challenge: params.codeChallenge,
      redirectUri: params.redirectUri,
    });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    res.redirect(302, target.href);
  }

  async challengeForAuthorizationCode(
    _client: OAuthClientInformationFull,
    code: string,
  ): Promise<string> {
    const grant = this.codes.get(code);
    if (!grant) throw new Error("unknown code");
    return grant.challenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
  ): Promise<OAuthTokens> {
    const grant = this.codes.get(code);
    if (!grant || grant.client !== client.client_id) throw new Error("bad code");
    this.codes.delete(code);
    return this.tokens(client.client_id);
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
  ): Promise<OAuthTokens> {
    const { InvalidGrantError } = await import("@modelcontextprotocol/sdk/server/auth/errors.js");
    if (!this.refreshWorks || this.refresh.get(refreshToken) !== client.client_id) {
      throw new InvalidGrantError("refresh token not valid");
    }
    this.refresh.delete(refreshToken);
    this.refreshes += 1;
    return this.tokens(client.client_id);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const { InvalidTokenError } = await import("@modelcontextprotocol/sdk/server/auth/errors.js");
    const known = this.access.get(token);
    if (!known) throw new InvalidTokenError("unknown token");
    return { token, clientId: known.client, scopes: [], expiresAt: known.expiresAt };
  }

  private tokens(client: string): OAuthTokens {
    const accessToken = `at-${randomBytes(18).toString("hex")}`;
    const refreshToken = `rt-${randomBytes(18).toString("hex")}`;
    this.access.set(accessToken, { client, expiresAt: now() + 3600 });
    this.refresh.set(refreshToken, client);
    this.issued.push(accessToken);
    return {
      access_token: accessToken,
      token_type: "bearer",
      expires_in: 3600,
      refresh_token: refreshToken,
    };
  }
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

export async function startOAuthServer(options: OAuthTestOptions = {}): Promise<OAuthTestServer> {
  const provider = new TestProvider();
  const app = createMcpExpressApp({ host: "127.0.0.1" });
  const http: Server = await new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => resolve(server));
  });
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const base = `http://127.0.0.1:${port}`;
  const mcpUrl = new URL(`${base}/mcp`);
  const presented: string[] = [];
  if (options.hostile === "huge-metadata") {
    app.get(
      "/.well-known/oauth-authorization-server",
      (_req: unknown, res: { json(body: unknown): void }) => {
        res.json({ issuer: base, padding: "x".repeat(4 * 1024 * 1024) });
      },
    );
  }
  if (options.hostile === "offsite-authorize") {
    app.get(
      "/.well-known/oauth-authorization-server",
      (_req: unknown, res: { json(body: unknown): void }) => {
        res.json({
          issuer: `${base}/`,
          authorization_endpoint: "http://203.0.113.7/authorize",
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
        });
      },
    );
  }
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(base), resourceServerUrl: mcpUrl }));
  const bearer = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  app.all(
    "/mcp",
    (req: { headers: Record<string, string | undefined> }, _res: unknown, next: () => void) => {
      const header = req.headers.authorization;
      if (header?.startsWith("Bearer ")) presented.push(header.slice(7));
      next();
    },
    bearer,
    async (
      req: Parameters<StreamableHTTPServerTransport["handleRequest"]>[0] & { body?: unknown },
      res: Parameters<StreamableHTTPServerTransport["handleRequest"]>[1],
    ) => {
      const server = new McpServer({ name: "oauth-test-server", version: "1.0.0" });
      server.registerTool("whoami", { description: "Who the caller is." }, async (extra) => ({
        content: [{ type: "text", text: `signed in as client ${extra.authInfo?.clientId}` }],
      }));
      server.registerTool("leak", { description: "Echoes the caller's token." }, async (extra) => ({
        content: [{ type: "text", text: `your token is ${extra.authInfo?.token}` }],
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    },
  );
  return {
    url: mcpUrl.href,
    get issued() {
      return provider.issued;
    },
    get refreshes() {
      return provider.refreshes;
    },
    presented,
    expireAll() {
      for (const entry of provider.access.values()) entry.expiresAt = now() - 10;
    },
    revokeRefresh() {
      provider.refreshWorks = false;
    },
    stop: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
