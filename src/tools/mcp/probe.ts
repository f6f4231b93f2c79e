// Starts one configured server, reads what it offers and stops it: for `codewhale mcp list`,
// `mcp get` and `codewhale doctor`. The same start as a session's (connection.ts), so a server
// that works here works there. Never rejects.
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerConfig } from "../../config/index.ts";
import { McpConnection, type RefusedTool } from "./connection.ts";
import { mcpToolKind, mcpToolName } from "./mcp-tool.ts";
import { offersTool } from "./source.ts";
import type { TransportOptions } from "./transport.ts";

export interface ProbedTool {
  /** The name the model sees, `mcp__SERVER__TOOL`. */
  name: string;
  /** The server's own name for it. */
  serverName: string;
  kind: string;
  description: string;
  inputSchema: McpTool["inputSchema"];
  /** False when include_tools/exclude_tools leave it out. */
  offered: boolean;
}

export type ServerProbe =
  | {
      ok: true;
      server: { name: string; version: string } | undefined;
      tools: ProbedTool[];
      refused: RefusedTool[];
      ms: number;
    }
  | { ok: false; reason: string; ms: number; needsLogin?: boolean };

export async function probeServer(
  name: string,
  server: McpServerConfig,
  options: TransportOptions,
): Promise<ServerProbe> {
  const started = Date.now();
  const notices: string[] = [];
  const events = { toolsChanged: () => {}, notice: (line: string) => void notices.push(line) };
  const result = await McpConnection.start(name, server, options, events);
  if (!result.ok) {
    const ms = Date.now() - started;
    return {
      ok: false,
      reason: result.reason,
      ms,
      ...(result.needsLogin ? { needsLogin: true } : {}),
    };
  }
  const connection = result.connection;
  const tools = connection.tools().map((tool) => ({
    name: mcpToolName(name, tool.name),
    serverName: tool.name,
    kind: mcpToolKind(tool).kind,
    description: tool.description ?? "",
    inputSchema: tool.inputSchema,
    offered: offersTool(server, tool.name),
  }));
  const probe: ServerProbe = {
    ok: true,
    server: connection.serverInfo(),
    tools,
    refused: [...connection.refused()],
    ms: Date.now() - started,
  };
  await connection.close();
  return probe;
}
