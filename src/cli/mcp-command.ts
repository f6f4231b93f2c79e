// `codewhale mcp list [--json]` (each server started: its state, tool count or why it failed)
// and `mcp get NAME [--json]` (its tools, kinds, schemas, masked headers/env, OAuth sign-in),
// like `claude mcp list/get`; add/remove and login/logout are in mcp-edit-command.ts and
// mcp-auth-command.ts. Servers start as a session's would, then stop; dist/mcp.cjs is loaded
// only when one is configured. Registered by cli/main.ts; doctor reuses the probe.
import type { Command } from "commander";
import type { Env, LoadedConfig, McpServerConfig } from "../config/index.ts";
import { loadConfig, MASK, maskArgv, maskSecretText } from "../config/index.ts";
import { UsageError } from "../errors.ts";
import { providerKeyVars, withoutCredentials } from "../hooks/index.ts";
import { terminalSafe } from "../runner/index.ts";
import type { ServerProbe } from "../tools/mcp/index.ts";
import { cwdOption } from "./cwd-option.ts";
import { registerMcpAuthCommands } from "./mcp-auth-command.ts";
import { registerMcpEditCommands } from "./mcp-edit-command.ts";
import { printJson, printOut } from "./print.ts";

export interface McpServerReport {
  name: string;
  transport: "stdio" | "http";
  target: string;
  enabled: boolean;
  /** Header (http) or env (stdio) values, each masked unless it is only `${VAR}` references. */
  headers?: Record<string, string>;
  env?: Record<string, string>;
  /** Where `mcp login` stored its tokens and when the access token expires (ISO time). */
  oauth?: { file: string; expires?: string };
  probe?: ServerProbe;
}

export function registerMcpCommand(program: Command): void {
  const mcp = program
    .command("mcp")
    .description("list, inspect, add, remove and sign in to the configured MCP servers");
  mcp
    .command("list")
    .description("start each configured MCP server and show its state and tool count")
    .option("--json", "print the servers as JSON")
    .option("--cwd <dir>", "directory to find the project config from")
    .action(async (options: { json?: boolean; cwd?: string }) => {
      const loaded = loadFor(options.cwd);
      const reports = await probeServers(loaded, process.env);
      if (options.json) printJson(reports);
      else printOut(formatList(reports, loaded));
    });
  mcp
    .command("get")
    .description("start one MCP server and show its tools and their input schemas")
    .argument("<name>", "the server's name in [mcp_servers]")
    .option("--json", "print the server and its tools as JSON")
    .option("--cwd <dir>", "directory to find the project config from")
    .action(async (name: string, options: { json?: boolean; cwd?: string }) => {
      const loaded = loadFor(options.cwd);
      const server = loaded.config.mcp_servers[name];
      if (!server) {
        const known = Object.keys(loaded.config.mcp_servers).join(", ") || "none";
        throw new UsageError(`no MCP server "${name}" is configured (configured: ${known})`);
      }
      const [report] = await probeServers(loaded, process.env, [
        [name, { ...server, enabled: true }],
      ]);
      if (!report) return;
      if (options.json) printJson(report);
      else printOut(formatGet(report));
    });
  registerMcpEditCommands(mcp);
  registerMcpAuthCommands(mcp);
}

function loadFor(cwd: string | undefined): LoadedConfig {
  return loadConfig({ cwd: cwd === undefined ? process.cwd() : cwdOption(cwd), env: process.env });
}

/** Every server (or `only`), the enabled ones started concurrently and stopped again. */
export async function probeServers(
  loaded: LoadedConfig,
  env: Env,
  only?: Array<[string, McpServerConfig]>,
): Promise<McpServerReport[]> {
  const servers = only ?? Object.entries(loaded.config.mcp_servers);
  if (servers.length === 0) return [];
  const { authDirOf, probeServer, storedLogin } = await import("../tools/mcp/index.ts");
  const options = {
    env: withoutCredentials(env, providerKeyVars(loaded.config.providers)),
    vars: env,
    cwd: loaded.cwd,
    authDir: authDirOf(loaded.home),
  };
  return Promise.all(
    servers.map(async ([name, server]) => {
      const report: McpServerReport = {
        name,
        transport: server.url === undefined ? "stdio" : "http",
        target:
          server.url === undefined
            ? maskArgv([server.command ?? "", ...server.args]).join(" ")
            : maskSecretText(server.url),
        enabled: server.enabled,
      };
      if (Object.keys(server.headers).length > 0) report.headers = masked(server.headers);
      if (Object.keys(server.env).length > 0) report.env = masked(server.env);
      if (server.enabled) report.probe = await probeServer(name, server, options);
      // After the probe: a start may have refreshed the tokens.
      const login = storedLogin(name, server, options.authDir, env);
      if (login) {
        const expires = login.expiresAt ? { expires: new Date(login.expiresAt).toISOString() } : {};
        report.oauth = { file: login.file, ...expires };
      }
      return report;
    }),
  );
}

/**
 * Values as shown: a literal value is masked whole (it may be a token given on the command
 * line); one that takes its secret from `${VAR}` is shown, secret-shaped parts masked.
 */
function masked(table: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(table)) {
    out[name] = value.includes("${") ? maskSecretText(value) : MASK;
  }
  return out;
}

function formatList(reports: readonly McpServerReport[], loaded: LoadedConfig): string {
  if (reports.length === 0) {
    const hint = loaded.trust.notice ? " (an untrusted project's servers are ignored)" : "";
    return `no MCP servers configured${hint}\n`;
  }
  return reports.map((report) => `${terminalSafe(listLine(report))}\n`).join("");
}

function listLine(report: McpServerReport): string {
  const head = `${report.name}  ${report.transport}  ${report.target}`;
  const probe = report.probe;
  if (!probe) return `${head}  disabled`;
  if (!probe.ok) return `${head}  failed: ${probe.reason}`;
  const offered = probe.tools.filter((tool) => tool.offered).length;
  const server = probe.server ? ` (${probe.server.name} ${probe.server.version})` : "";
  return `${head}  connected${server}, ${offered} tool${offered === 1 ? "" : "s"}`;
}

function formatGet(report: McpServerReport): string {
  const lines = [listLine(report)];
  for (const [what, table] of [
    ["header", report.headers],
    ["env", report.env],
  ] as const) {
    for (const [name, value] of Object.entries(table ?? {}))
      lines.push(`${what} ${name}: ${value}`);
  }
  if (report.oauth) {
    const expires = report.oauth.expires ? `, access token expires ${report.oauth.expires}` : "";
    lines.push(`oauth: signed in (${report.oauth.file}${expires})`);
  }
  const probe = report.probe;
  if (probe?.ok) {
    for (const tool of probe.tools) {
      const off = tool.offered ? "" : " (not offered: include_tools/exclude_tools)";
      lines.push("", `${tool.name} [${tool.kind}]${off}`);
      if (tool.description) lines.push(`  ${tool.description.split("\n")[0]}`);
      lines.push(`  input: ${JSON.stringify(tool.inputSchema)}`);
    }
    for (const refused of probe.refused)
      lines.push("", `${refused.name}: not offered: ${refused.problem}`);
  }
  return `${lines.map(terminalSafe).join("\n")}\n`;
}
