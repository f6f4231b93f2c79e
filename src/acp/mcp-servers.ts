// The MCP servers an editor names in session/new, load and resume, as `[mcp_servers.NAME]`
// entries the session connects beside the config's own (the editor is the user's: no project
// trust is involved). stdio and streamable HTTP servers; an SSE server, a name that cannot be
// a tool-name part or a server that fails its check is one diagnostic line naming it, never a
// value of its env or headers. Called by acp-sessions.ts when it opens the session.
import type { McpServer } from "@agentclientprotocol/sdk";
import {
  type LoadedConfig,
  MCP_SERVER_NAME,
  type McpServerConfig,
  parseMcpServer,
} from "../config/index.ts";
import { terminalSafe } from "../runner/index.ts";

export type EditorMcpServers = Record<string, McpServerConfig>;

const pairs = (list: ReadonlyArray<{ name: string; value: string }>) =>
  Object.fromEntries(list.map(({ name, value }) => [name, value]));

/** The editor's servers by name, each checked as a `[mcp_servers.NAME]` entry. */
export function mcpServersFor(
  servers: readonly McpServer[] | undefined,
  diagnostic: (line: string) => void,
): EditorMcpServers {
  const chosen: EditorMcpServers = {};
  for (const server of servers ?? []) {
    const name = terminalSafe(server.name);
    if (!MCP_SERVER_NAME.test(server.name)) {
      diagnostic(
        `the editor's MCP server "${name}" is not connected: a name of letters, digits, - or single _ is needed`,
      );
      continue;
    }
    if ("type" in server && server.type === "sse") {
      diagnostic(
        `the editor's MCP server "${name}" is not connected: SSE servers are not supported (streamable HTTP and stdio are)`,
      );
      continue;
    }
    const input =
      "type" in server && server.type === "http"
        ? { url: server.url, headers: pairs(server.headers) }
        : "command" in server
          ? { command: server.command, args: server.args, env: pairs(server.env) }
          : undefined;
    const parsed = input ? parseMcpServer(input) : undefined;
    if (!parsed?.ok) {
      const why = parsed ? terminalSafe(parsed.problem) : "an unknown kind of server";
      diagnostic(`the editor's MCP server "${name}" is not connected: ${why}`);
      continue;
    }
    chosen[server.name] = parsed.server;
  }
  return chosen;
}

/**
 * The config with the editor's servers beside its own; an editor's server wins a shared name,
 * and `replaced` hears each such name (the first open says so, a reopen does not repeat it).
 */
export function withEditorServers(
  loaded: LoadedConfig,
  editors: EditorMcpServers,
  replaced?: (line: string) => void,
): LoadedConfig {
  const names = Object.keys(editors);
  if (names.length === 0) return loaded;
  for (const name of names) {
    if (name in loaded.config.mcp_servers) {
      replaced?.(`the editor's MCP server "${name}" is used in place of the configured one`);
    }
  }
  const mcp_servers = { ...loaded.config.mcp_servers, ...editors };
  return { ...loaded, config: { ...loaded.config, mcp_servers } };
}
