// The SDK transport of one configured MCP server: stdio (the command with the session's
// environment less every credential, plus those its `env_allow` names and its own `env`; its stderr
// kept as a bounded tail for error notices, never printed) or streamable HTTP (the url and
// headers with `${VAR}` filled in; without an Authorization header of its own, OAuth through
// what `mcp login` stored, never interactive). A stdio server runs in the session's OS sandbox
// with the network on, unless `[sandbox] mcp_servers = "outside"`. Called by connection.ts.
import { isAbsolute, resolve } from "node:path";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConfig } from "../../config/index.ts";
import { confinedArgv } from "../../runner/index.ts";
import type { SandboxProfile } from "../sandbox-setup.ts";
import { expandTable, expandVars, unset } from "./expand-vars.ts";
import { guardedOAuthFetch } from "./oauth-fetch.ts";
import { SessionAuthProvider } from "./oauth-provider.ts";
import { authFileFor } from "./oauth-store.ts";

/** The last bytes of a server's stderr kept for notices. */
const STDERR_TAIL_BYTES = 2048;

export interface TransportOptions {
  /** The environment a stdio server starts from (credentials already removed). */
  env: NodeJS.ProcessEnv;
  /** The environment `${VAR}` is filled from. */
  vars: Readonly<Record<string, string | undefined>>;
  /** The session's working directory: a relative `cwd` is under it. */
  cwd: string;
  /** `$CODEWHALE_HOME/mcp-auth`: OAuth for remote servers; absent, none is tried. */
  authDir?: string;
  /** The OS sandbox a stdio server runs in (`[sandbox] mcp_servers`); absent: unconfined. */
  sandbox?: SandboxProfile;
}

export interface BuiltTransport {
  transport: Transport;
  /** The last lines the server wrote to stderr (stdio only). */
  stderrTail(): string;
  /** Shown in `mcp list`: the command line or the url. */
  target: string;
  /** True once OAuth found that the user must sign in (`codewhale mcp login NAME`). */
  needsLogin(): boolean;
}

export type TransportBuild = { ok: true; built: BuiltTransport } | { ok: false; problem: string };

export async function buildTransport(
  name: string,
  server: McpServerConfig,
  options: TransportOptions,
): Promise<TransportBuild> {
  if (server.url !== undefined) return httpTransport(name, server.url, server.headers, options);
  const command = server.command ?? "";
  const env = expandTable(server.env, options.vars, "env");
  if (!env.ok) return env;
  if (options.sandbox?.refusal) return { ok: false, problem: options.sandbox.refusal };
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const cwd = server.cwd === undefined ? options.cwd : resolve(options.cwd, server.cwd);
  const run = options.sandbox?.run;
  // In the sandbox: bwrap runs the server (it dies with codewhale: --die-with-parent).
  const [file = command, ...args] = run
    ? confinedArgv(run, [command, ...server.args], isAbsolute(cwd) ? cwd : resolve(cwd))
    : [command, ...server.args];
  const transport = new StdioClientTransport({
    command: file,
    args,
    env: { ...definedOnly(options.env), ...allowed(server.env_allow, options.vars), ...env.value },
    cwd: isAbsolute(cwd) ? cwd : resolve(cwd),
    stderr: "pipe",
  });
  let tail = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
  });
  const target = [command, ...server.args].join(" ");
  return {
    ok: true,
    built: { transport, stderrTail: () => tail, target, needsLogin: () => false },
  };
}

async function httpTransport(
  name: string,
  url: string,
  headers: Record<string, string>,
  options: TransportOptions,
): Promise<TransportBuild> {
  const expandedUrl = expandVars(url, options.vars);
  if (!expandedUrl.ok) return { ok: false, problem: unset(expandedUrl.missing, "url") };
  const expandedHeaders = expandTable(headers, options.vars, "header");
  if (!expandedHeaders.ok) return expandedHeaders;
  const { StreamableHTTPClientTransport } = await import(
    "@modelcontextprotocol/sdk/client/streamableHttp.js"
  );
  const ownAuth = Object.keys(expandedHeaders.value).some((key) => /^authorization$/i.test(key));
  const authProvider =
    options.authDir === undefined || ownAuth
      ? undefined
      : new SessionAuthProvider({
          server: name,
          url: expandedUrl.value,
          file: authFileFor(options.authDir, name, expandedUrl.value),
        });
  const transport = new StreamableHTTPClientTransport(new URL(expandedUrl.value), {
    requestInit: { headers: expandedHeaders.value },
    ...(authProvider ? { authProvider, fetch: guardedOAuthFetch(expandedUrl.value) } : {}),
  });
  const needsLogin = () => authProvider?.needsLogin === true;
  return { ok: true, built: { transport, stderrTail: () => "", target: url, needsLogin } };
}

/** The variables `env_allow` names, as the session's environment has them (set ones only). */
function allowed(
  names: readonly string[] | undefined,
  vars: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names ?? []) {
    const value = vars[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}
