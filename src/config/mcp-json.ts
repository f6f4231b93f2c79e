// Claude Code's project `.mcp.json` (`{ "mcpServers": { NAME: { command, args, env } |
// { type: "http", url, headers } } }`), read beside a project's `.codewhale/` and added to the
// project layer as `mcp_servers` entries (the project file's own entries win a name), so the
// trust table gates them and the trust fingerprint covers them. Called by load.ts only.
import { join } from "node:path";
import { errorMessage } from "../errors.ts";
import type { Table } from "./merge.ts";
import { isTable } from "./merge.ts";
import { readRegularFile } from "./path-checks.ts";

/** The largest `.mcp.json` read, in bytes. */
const MAX_MCP_JSON_BYTES = 1024 * 1024;
/** Fields of a Claude Code server entry that codewhale takes, under the same names. */
const SAME_FIELDS = ["command", "args", "env", "cwd", "url", "headers"] as const;

export interface McpJsonRead {
  path: string;
  /** The servers as `mcp_servers` entries; empty when the file is absent or unreadable. */
  servers: Table;
  /** Why the file could not be taken (reported only when the project is trusted). */
  problem?: string;
}

/** The `.mcp.json` at `projectRoot`, or undefined when there is none. */
export function readMcpJson(projectRoot: string): McpJsonRead | undefined {
  const path = join(projectRoot, ".mcp.json");
  const read = readRegularFile(path, MAX_MCP_JSON_BYTES);
  if (!read.ok) {
    if (read.reason === "error" && (read.error as { code?: unknown }).code === "ENOENT") {
      return undefined;
    }
    return { path, servers: {}, problem: "not a readable regular file of at most 1 MiB" };
  }
  // An empty file is a sandbox's mount point (sandbox-placeholders.ts), not a configuration.
  if (read.text === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.text);
  } catch (error) {
    return { path, servers: {}, problem: `not valid JSON (${errorMessage(error)})` };
  }
  const servers = isTable(parsed) ? parsed.mcpServers : undefined;
  if (!isTable(servers)) return { path, servers: {}, problem: 'expected { "mcpServers": { … } }' };
  const out: Table = {};
  for (const [name, entry] of Object.entries(servers)) out[name] = serverEntry(entry);
  return { path, servers: out };
}

/** One entry in codewhale's shape; what it cannot be is left for the schema to name. */
function serverEntry(entry: unknown): unknown {
  if (!isTable(entry)) return entry;
  const out: Table = {};
  for (const field of SAME_FIELDS) if (entry[field] !== undefined) out[field] = entry[field];
  // "sse" is the old HTTP+SSE transport, which codewhale does not speak: keep it refused.
  if (entry.type === "sse") out.transport = "sse";
  return out;
}

/** The project layer's data with the `.mcp.json` servers the project file does not name. */
export function withMcpJsonServers(data: Table, servers: Table): Table {
  if (Object.keys(servers).length === 0) return data;
  const own = isTable(data.mcp_servers) ? data.mcp_servers : {};
  return { ...data, mcp_servers: { ...servers, ...own } };
}
