// The MCP servers an editor names in session/new, load and resume. Not connected yet: MCP
// support is being built, and `mcpServersFor` is the one place it connects them to a session
// (today it says, once on stderr, how many were not connected, naming no value of theirs).
// Called by acp-agent.ts after the session opened.
import type { McpServer } from "@agentclientprotocol/sdk";
import type { AcpSession } from "./acp-session.ts";

export function mcpServersFor(
  _session: AcpSession,
  servers: readonly McpServer[] | undefined,
  diagnostic: (line: string) => void,
): void {
  if (!servers || servers.length === 0) return;
  diagnostic(`the editor's MCP servers are not supported yet: ${servers.length} not connected`);
}
