// Adds and removes one `[mcp_servers.NAME]` table in a config file through the one TOML writer
// (toml-edit.ts): the rest of the file, comments included, is kept byte for byte. The edited
// text is parsed again and must hold the same data with exactly that server added, replaced or
// removed, or nothing is written. A new file is created 0600. Called by `codewhale mcp
// add/remove` (src/cli/mcp-edit-command.ts).
import { parse } from "smol-toml";
import { ConfigEditError, ConfigError } from "../errors.ts";
import { canonicalJson } from "./fingerprint.ts";
import { isTable } from "./merge.ts";
import {
  appendTable,
  parseConfigText,
  readConfigText,
  removeTable,
  writeConfigText,
} from "./toml-edit.ts";

/** A server as it is written: the keys `mcp add` sets, in this order. */
export interface McpEntry {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
}

/** The `mcp_servers` table of `file` ({} when the file or the table is missing). */
export function readMcpServerTables(file: string): Record<string, unknown> {
  return serversOf(file, parseConfigText(file, readConfigText(file)));
}

/**
 * Writes `entry` as `[mcp_servers.NAME]` of `file` (created 0600 if missing). An existing
 * server of that name is refused unless `force`; returns whether one was replaced.
 */
export function addMcpServer(
  file: string,
  name: string,
  entry: McpEntry,
  options: { force: boolean },
): { replaced: boolean } {
  const before = readConfigText(file);
  const data = parseConfigText(file, before);
  const servers = serversOf(file, data);
  const replaced = Object.hasOwn(servers, name);
  if (replaced && !options.force) {
    throw new ConfigEditError(
      `${file}: MCP server "${name}" exists already (use --force to replace it, or \`codewhale mcp remove ${name}\`)`,
    );
  }
  const table = `mcp_servers.${name}`;
  const after = appendTable(replaced ? removeTable(before, table) : before, table, lines(entry));
  const expected = { ...data, mcp_servers: { ...servers, [name]: plain(entry) } };
  checkAndWrite(file, after, expected, `add [${table}]`);
  return { replaced };
}

/** Removes `[mcp_servers.NAME]` from `file`; false (nothing written) when it has none. */
export function removeMcpServer(file: string, name: string): boolean {
  const before = readConfigText(file);
  const data = parseConfigText(file, before);
  const servers = serversOf(file, data);
  if (!Object.hasOwn(servers, name)) return false;
  const { [name]: _removed, ...rest } = servers;
  const after = removeTable(before, `mcp_servers.${name}`);
  checkAndWrite(file, after, { ...data, mcp_servers: rest }, `remove [mcp_servers.${name}]`);
  return true;
}

function checkAndWrite(
  file: string,
  after: string,
  expected: Record<string, unknown>,
  what: string,
): void {
  let check: string | undefined;
  try {
    check = canonicalJson(withoutEmptyServers(parse(after)));
  } catch {
    check = undefined;
  }
  if (check !== canonicalJson(withoutEmptyServers(expected))) {
    throw new ConfigError(
      `${file}: could not ${what} without changing anything else (is it written inline or as dotted keys?); edit the file by hand`,
      file,
    );
  }
  writeConfigText(file, after, 0o600);
}

/** An empty `mcp_servers` and a missing one mean the same. */
function withoutEmptyServers(data: Record<string, unknown>): Record<string, unknown> {
  const servers = data.mcp_servers;
  if (!isTable(servers) || Object.keys(servers).length > 0) return data;
  const { mcp_servers: _empty, ...rest } = data;
  return rest;
}

function serversOf(file: string, data: Record<string, unknown>): Record<string, unknown> {
  const servers = data.mcp_servers ?? {};
  if (!isTable(servers)) {
    throw new ConfigError(`${file}: mcp_servers is not a table; edit the file by hand`, file);
  }
  return servers;
}

/** The entry without its empty parts: what the written table parses back to. */
function plain(entry: McpEntry): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (isTable(value) && Object.keys(value).length === 0) continue;
    out[key] = value;
  }
  return out;
}

function lines(entry: McpEntry): string[] {
  return Object.entries(plain(entry)).map(([key, value]) => `${key} = ${tomlValue(value)}`);
}

function tomlValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(", ")}]`;
  if (isTable(value)) {
    const pairs = Object.entries(value).map(
      ([key, item]) => `${tomlKey(key)} = ${tomlValue(item)}`,
    );
    return `{ ${pairs.join(", ")} }`;
  }
  throw new Error(`not a TOML value for an MCP entry: ${typeof value}`);
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}
