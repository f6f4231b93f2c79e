// The prompts and resources of a session's MCP servers as a surface sees them (`agent.mcp`):
// server prompts as slash commands `/mcp__server__prompt`, resources to attach as
// `@server:uri`. The MCP source fills it (tools/mcp/catalog.ts, in the lazy MCP bundle); a
// session without servers has the empty catalog. Surfaces (terminal UI, ACP) call these.

export interface McpPromptInfo {
  server: string;
  name: string;
  /** The slash command a surface offers, `/mcp__server__prompt`. */
  command: string;
  description: string;
  arguments: Array<{ name: string; required: boolean; description?: string }>;
}

export interface McpResourceInfo {
  server: string;
  uri: string;
  name: string;
  mimeType?: string;
  /** How the user mentions it in a prompt, `@server:uri`. */
  mention: string;
}

export interface McpCatalog {
  /** The connected servers, in config order. */
  servers(): string[];
  prompts(): Promise<McpPromptInfo[]>;
  /** The prompt's messages as text, through the output policy. Rejects with the server's reason. */
  getPrompt(server: string, name: string, args: Record<string, string>): Promise<string>;
  resources(): Promise<McpResourceInfo[]>;
  /**
   * The resource's text contents, through the output policy. Rejects with the server's reason,
   * or when `signal` aborts (the user stopped waiting).
   */
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<string>;
}

export const EMPTY_MCP_CATALOG: McpCatalog = {
  servers: () => [],
  prompts: async () => [],
  getPrompt: async (server) => Promise.reject(new Error(`MCP server "${server}" is not connected`)),
  resources: async () => [],
  readResource: async (server) =>
    Promise.reject(new Error(`MCP server "${server}" is not connected`)),
};
