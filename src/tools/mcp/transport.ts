// The SDK transport of one configured MCP server: stdio (the command with the session's
// environment less every credential-looking variable, plus the entry's own `env`; its stderr
// kept as a bounded tail for error notices, never printed) or streamable HTTP (the url and
// headers with `${VAR}` filled in). Called by connection.ts for each start and restart.
import { isAbsolute, resolve } from "node:path";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConfig } from "../../config/index.ts";
import { expandTable, expandVars, unset } from "./expand-vars.ts";

/** The last bytes of a server's stderr kept for notices. */
const STDERR_TAIL_BYTES = 2048;

export interface TransportOptions {
  /** The environment a stdio server starts from (credentials already removed). */
  env: NodeJS.ProcessEnv;
  /** The environment `${VAR}` is filled from. */
  vars: Readonly<Record<string, string | undefined>>;
  /** The session's working directory: a relative `cwd` is under it. */
  cwd: string;
}

export interface BuiltTransport {
  transport: Transport;
  /** The last lines the server wrote to stderr (stdio only). */
  stderrTail(): string;
  /** Shown in `mcp list`: the command line or the url. */
  target: string;
}

export type TransportBuild = { ok: true; built: BuiltTransport } | { ok: false; problem: string };

export async function buildTransport(
  server: McpServerConfig,
  options: TransportOptions,
): Promise<TransportBuild> {
  if (server.url !== undefined) return httpTransport(server.url, server.headers, options);
  const command = server.command ?? "";
  const env = expandTable(server.env, options.vars, "env");
  if (!env.ok) return env;
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const cwd = server.cwd === undefined ? options.cwd : resolve(options.cwd, server.cwd);
  const transport = new StdioClientTransport({
    command,
    args: server.args,
    env: { ...definedOnly(options.env), ...env.value },
    cwd: isAbsolute(cwd) ? cwd : resolve(cwd),
    stderr: "pipe",
  });
  let tail = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
  });
  const target = [command, ...server.args].join(" ");
  return { ok: true, built: { transport, stderrTail: () => tail, target } };
}

async function httpTransport(
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
  const transport = new StreamableHTTPClientTransport(new URL(expandedUrl.value), {
    requestInit: { headers: expandedHeaders.value },
  });
  return { ok: true, built: { transport, stderrTail: () => "", target: url } };
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}
