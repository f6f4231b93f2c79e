// The configured MCP servers as ToolSources, one per enabled server (`mcp:NAME` in notices and
// `tools/changed`): opening one starts the server (the toolbox opens every source at once, so
// servers start in parallel), and a server that fails or times out is one notice naming it and
// why, the session going on without its tools. Its tools follow include_tools/exclude_tools;
// a list_changed (or a restart) rebuilds them and takes effect at the next turn boundary.
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerConfig } from "../../config/index.ts";
import { stripControls } from "../../runner/index.ts";
import type { PresentedTool } from "../presentation.ts";
import type { ToolNotice, ToolSource, ToolSourceContext } from "../source.ts";
import { McpConnection } from "./connection.ts";
import { createMcpTool } from "./mcp-tool.ts";

export interface McpSourceOptions {
  /** The environment stdio servers start from: the session's without credentials. */
  env: NodeJS.ProcessEnv;
  /** Where `${VAR}` values come from: the session's environment. */
  vars: Readonly<Record<string, string | undefined>>;
  /** `$CODEWHALE_HOME/mcp-auth`, where `mcp login` stored remote servers' OAuth tokens. */
  authDir?: string;
  /** Receives each connected server, for the prompts and resources catalog. */
  onConnected?: (server: string, connection: McpConnection) => void;
}

/** A source per enabled server, in config order. */
export function mcpToolSources(
  servers: Readonly<Record<string, McpServerConfig>>,
  options: McpSourceOptions,
): ToolSource[] {
  return Object.entries(servers)
    .filter(([, server]) => server.enabled)
    .map(([name, server]) => mcpServerSource(name, server, options));
}

/** Whether the server offers tool `tool` (its MCP name) under include_tools/exclude_tools. */
export function offersTool(server: McpServerConfig, tool: string): boolean {
  if (server.include_tools !== undefined && !server.include_tools.includes(tool)) return false;
  return !server.exclude_tools.includes(tool);
}

export function mcpServerSource(
  name: string,
  server: McpServerConfig,
  options: McpSourceOptions,
): ToolSource {
  return {
    name: `mcp:${name}`,
    async open(context) {
      let tools: PresentedTool[] = [];
      const events = {
        toolsChanged: () => {
          void rebuild().then(() => context.listChanged());
        },
        notice: (message: string) => context.notice({ message: shown(message), level: "tools" }),
      };
      const started = await McpConnection.start(
        name,
        server,
        {
          env: options.env,
          vars: options.vars,
          cwd: context.workspace.cwd,
          ...(options.authDir === undefined ? {} : { authDir: options.authDir }),
          ...(context.workspace.sandbox
            ? { sandbox: context.workspace.sandbox.profile("mcp_servers") }
            : {}),
        },
        events,
        context.signal,
      );
      if (!started.ok) {
        const message = shown(
          started.needsLogin
            ? `MCP server "${name}" ${started.reason}`
            : `MCP server "${name}" did not start: ${started.reason}`,
        );
        return { tools: () => [], notices: [{ message, level: "tools" }], dispose: async () => {} };
      }
      const connection = started.connection;
      options.onConnected?.(name, connection);
      const notices: ToolNotice[] = [];
      const rebuild = async (into: ToolNotice[] | null = null) => {
        const say = (message: string) =>
          into ? into.push({ message: shown(message), level: "tools" }) : events.notice(message);
        for (const { name: tool, problem } of connection.refused()) {
          say(`MCP server "${name}": tool ${tool} is not offered: ${problem}`);
        }
        tools = await buildTools(name, server, connection.tools(), connection, say);
      };
      await rebuild(notices);
      closeWith(context, connection);
      return { tools: () => tools, notices, dispose: () => connection.close() };
    },
  };
}

async function buildTools(
  server: string,
  config: McpServerConfig,
  listed: readonly McpTool[],
  connection: McpConnection,
  notice: (message: string) => void,
): Promise<PresentedTool[]> {
  const built = await Promise.all(
    listed
      .filter((tool) => offersTool(config, tool.name))
      .map(async (tool) => ({ tool, made: await createMcpTool(server, tool, connection) })),
  );
  const tools: PresentedTool[] = [];
  const names = new Set<string>();
  for (const { tool, made } of built) {
    if (!made.ok)
      notice(`MCP server "${server}": tool ${tool.name} is not offered: ${made.problem}`);
    else if (names.has(made.tool.name)) {
      notice(
        `MCP server "${server}": tool ${tool.name} is not offered: its name ${made.tool.name} is taken`,
      );
    } else {
      names.add(made.tool.name);
      tools.push(made.tool);
    }
  }
  return tools;
}

/** A notice holds what a server sent (names, reasons): no control characters reach a terminal. */
function shown(message: string): string {
  return stripControls(message).replace(/[\r\n]+/g, " ");
}

/** The server stops when the session closes, even before the toolbox disposes it. */
function closeWith(context: ToolSourceContext, connection: McpConnection): void {
  if (context.signal.aborted) void connection.close();
  else context.signal.addEventListener("abort", () => void connection.close(), { once: true });
}
