// The MCP servers an editor names in session/new, load and resume, as `[mcp_servers.NAME]`
// entries the session connects beside the config's own (the editor is the user's: no project
// trust is involved). stdio and streamable HTTP servers; an SSE server, a name that cannot be
// a tool-name part or a server that fails its check is one diagnostic line naming it, never a
// value of its env or headers. Called by acp-sessions.ts when it opens the session.
import type { McpServer } from "@agentclientprotocol/sdk";
import { MCP_SERVER_NAME, type McpServerConfig, parseMcpServer } from "../config/index.ts";
import { escapeControls } from "../runner/index.ts";

export type EditorMcpServers = Record<string, McpServerConfig>;

const pairs = (list: ReadonlyArray<{ name: string; value: string }>) =>
  Object.fromEntries(list.map(({ name, value }) => [name, value]));

/**
 * The editor's servers by name; `configured` (the config's names) lets a diagnostic say when
 * an editor's server takes the place of a configured one of the same name.
 */
export function mcpServersFor(
  servers: readonly McpServer[] | undefined,
  configured: readonly string[],
  diagnostic: (line: string) => void,
): EditorMcpServers {
  const chosen: EditorMcpServers = {};
  for (const server of servers ?? []) {
    const name = escapeControls(server.name);
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
      const why = parsed ? escapeControls(parsed.problem) : "an unknown kind of server";
      diagnostic(`the editor's MCP server "${name}" is not connected: ${why}`);
      continue;
    }
    if (configured.includes(server.name)) {
      diagnostic(`the editor's MCP server "${name}" is used in place of the configured one`);
    }
    chosen[server.name] = parsed.server;
  }
  return chosen;
}
