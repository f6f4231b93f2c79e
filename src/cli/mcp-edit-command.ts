// `codewhale mcp add NAME -- command args…` (`--env K=V`, `--cwd DIR`), `mcp add NAME --url URL`
// (`--header 'K: V'`) and `mcp remove NAME`, like `claude mcp add/remove`: they edit the user
// config, or the project's `.codewhale/config.toml` with `--project` (src/config/mcp-file.ts
// does the edit). A project edit says what trust means for it; a literal secret-looking
// header or env value is stored as given, with a hint to use `${VAR}`. Registered by mcp-command.ts.
import { dirname, join } from "node:path";
import type { Command } from "commander";
import type { McpEntry } from "../config/index.ts";
import {
  addMcpServer,
  containsSecret,
  findProjectConfig,
  isSecretKey,
  loadConfig,
  MCP_SERVER_NAME,
  maskSecretText,
  parseMcpServer,
  readMcpJson,
  readMcpServerTables,
  removeMcpServer,
  repositoryRoot,
  resolveHome,
  writableUserFile,
} from "../config/index.ts";
import { ConfigEditError, UsageError } from "../errors.ts";
import { terminalSafe } from "../runner/index.ts";

interface AddOptions {
  url?: string;
  header: string[];
  env: string[];
  cwd?: string;
  project?: boolean;
  force?: boolean;
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Names whose literal value is worth the `${VAR}` hint. */
const SECRET_NAME = /auth|token|key|secret|cookie|pass|session/i;
/** How a value names an environment variable, as the hint shows it. */
const VAR_REF = "$" + "{VAR}";

export function registerMcpEditCommands(mcp: Command): void {
  mcp
    .command("add")
    .description("add an MCP server to the user config (the project's with --project)")
    .argument("<name>", "the server's name in [mcp_servers]")
    .argument("[command...]", "a stdio server's command and its arguments, after --")
    .option("--url <url>", "a streamable HTTP server's URL (instead of a command)")
    .option("--header <header>", "an HTTP header, 'Name: value' (repeatable)", collect, [])
    .option("--env <var>", "a stdio server's environment variable, K=V (repeatable)", collect, [])
    .option("--cwd <dir>", "a stdio server's working directory")
    .option("--project", "edit the project's .codewhale/config.toml instead of the user config")
    .option("--force", "replace a server of the same name")
    .action((name: string, command: string[], options: AddOptions) => {
      checkName(name);
      const entry = entryFrom(command, options);
      const checked = parseMcpServer(entry);
      if (!checked.ok) throw new UsageError(`mcp add ${name}: ${checked.problem}`);
      const target = targetFile(options.project === true);
      const trustBefore = target.kind === "project" ? projectTrustState() : undefined;
      const { replaced } = addMcpServer(target.path, name, entry, {
        force: options.force === true,
      });
      const lines = [`${replaced ? "replaced" : "added"} MCP server "${name}" in ${target.path}`];
      lines.push(...secretHints(entry));
      if (trustBefore !== undefined) lines.push(trustNote(trustBefore));
      write(lines);
    });
  mcp
    .command("remove")
    .description("remove an MCP server from the user config (the project's with --project)")
    .argument("<name>", "the server's name in [mcp_servers]")
    .option("--project", "edit the project's .codewhale/config.toml instead of the user config")
    .action((name: string, options: { project?: boolean }) => {
      const target = targetFile(options.project === true);
      const trustBefore = target.kind === "project" ? projectTrustState() : undefined;
      if (!removeMcpServer(target.path, name)) {
        throw new ConfigEditError(
          `no MCP server "${terminalSafe(name)}" in ${target.path}${elsewhere(name, target.kind)}`,
        );
      }
      const lines = [`removed MCP server "${name}" from ${target.path}`];
      if (trustBefore === "trusted") lines.push(trustNote(trustBefore));
      write(lines);
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function checkName(name: string): void {
  if (MCP_SERVER_NAME.test(name)) return;
  throw new UsageError(
    `"${terminalSafe(name)}" is not a valid MCP server name: expected letters, digits, - or single _ (no __)`,
  );
}

function entryFrom(command: string[], options: AddOptions): McpEntry {
  const hasCommand = command.length > 0;
  if (hasCommand === (options.url !== undefined)) {
    throw new UsageError(
      "mcp add: give either a command after -- (a stdio server) or --url URL (a streamable HTTP server)",
    );
  }
  if (options.url !== undefined) {
    if (options.env.length > 0 || options.cwd !== undefined) {
      throw new UsageError("mcp add: --env and --cwd are for a stdio server, not with --url");
    }
    return { url: options.url, headers: pairs(options.header, ":", HEADER_NAME, "--header") };
  }
  if (options.header.length > 0) {
    throw new UsageError("mcp add: --header is for a streamable HTTP server (--url)");
  }
  const [program, ...args] = command;
  return {
    command: program,
    args,
    env: pairs(options.env, "=", ENV_NAME, "--env"),
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
  };
}

/** `K<sep>V` items as a table; a malformed one or a repeated name is a usage error. */
function pairs(
  items: readonly string[],
  separator: string,
  nameRule: RegExp,
  flag: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    const key = (at < 0 ? item : item.slice(0, at)).trim();
    const shape = separator === ":" ? "'Name: value'" : "NAME=value";
    if (at < 0 || !nameRule.test(key)) {
      throw new UsageError(
        `mcp add: ${flag} ${terminalSafe(maskSecretText(item))}: expected ${shape}`,
      );
    }
    if (Object.hasOwn(out, key)) throw new UsageError(`mcp add: ${flag} ${key} is given twice`);
    out[key] = separator === ":" ? item.slice(at + 1).trim() : item.slice(at + 1);
  }
  return out;
}

interface Target {
  kind: "user" | "project";
  path: string;
}

function targetFile(project: boolean): Target {
  const userFile = join(resolveHome(process.env), "config.toml");
  if (!project) return { kind: "user", path: writableUserFile(resolveHome(process.env)) };
  const cwd = process.cwd();
  const existing = findProjectConfig(cwd, userFile);
  const root = repositoryRoot(cwd) ?? cwd;
  return { kind: "project", path: existing ?? join(root, ".codewhale", "config.toml") };
}

/** The project's trust before the edit, or "unknown" when the config does not load. */
function projectTrustState(): string {
  try {
    return loadConfig({ cwd: process.cwd(), env: process.env }).trust.state;
  } catch {
    return "unknown";
  }
}

function trustNote(state: string): string {
  if (state === "trusted") {
    return "note: this changes the project's trust fingerprint: its MCP servers (and its other settings that need trust) are ignored until you run `codewhale trust` again";
  }
  return "note: a project's MCP servers start only when the project is trusted: review the file, then run `codewhale trust`";
}

/** A hint for each literal value that looks like a credential. */
function secretHints(entry: McpEntry): string[] {
  const hints: string[] = [];
  const tables: Array<[string, Record<string, string> | undefined, string]> = [
    ["header", entry.headers, `--header 'NAME: Bearer ${VAR_REF}'`],
    ["env", entry.env, `--env NAME='${VAR_REF}'`],
  ];
  for (const [what, table, example] of tables) {
    for (const [name, value] of Object.entries(table ?? {})) {
      if (value.includes("${")) continue;
      if (!isSecretKey(name) && !SECRET_NAME.test(name) && !containsSecret(value)) continue;
      hints.push(
        `note: ${what} ${name} is stored as given in the file (\`mcp list/get\` mask it); to keep the secret out of the file, use ${example.replace("NAME", name)} and set VAR in your environment`,
      );
    }
  }
  return hints;
}

/** Where else `name` is configured, for the remove-unknown line. */
function elsewhere(name: string, kind: Target["kind"]): string {
  const other = targetFile(kind === "user");
  try {
    if (Object.hasOwn(readMcpServerTables(other.path), name)) {
      return ` (it is in ${other.path}${kind === "user" ? ": use --project" : ": drop --project"})`;
    }
  } catch {
    // The other file does not parse: nothing to point at.
  }
  const project = kind === "project" ? targetFile(true) : other;
  const mcpJson = readMcpJson(dirname(dirname(project.path)));
  if (mcpJson && Object.hasOwn(mcpJson.servers, name)) {
    return ` (it is in ${mcpJson.path}, which codewhale does not edit: remove it there by hand)`;
  }
  return "";
}

function write(lines: readonly string[]): void {
  process.stdout.write(lines.map((line) => `${terminalSafe(line)}\n`).join(""));
}
