// MCP servers as a tool source (docs/mcp.md): the entry the agent and `codewhale mcp` import
// lazily (`await import("../tools/mcp/index.ts")`), built as its own bundle, dist/mcp.cjs, so
// the SDK is loaded only when a server is configured.

export type { CatalogRegistry } from "./catalog.ts";
export { createCatalogRegistry } from "./catalog.ts";
export type { CallOptions, ConnectionEvents, RefusedTool, StartResult } from "./connection.ts";
export { McpConnection } from "./connection.ts";
export { createMcpTool, mcpToolKind, mcpToolName } from "./mcp-tool.ts";
export type { LoginOptions, LoginOutcome } from "./oauth-login.ts";
export { loginServer, logoutServer, storedLogin } from "./oauth-login.ts";
export { authDirOf, storedAuthSecrets } from "./oauth-store.ts";
export type { ProbedTool, ServerProbe } from "./probe.ts";
export { probeServer } from "./probe.ts";
export type { McpSourceOptions } from "./source.ts";
export { mcpServerSource, mcpToolSources, offersTool } from "./source.ts";
