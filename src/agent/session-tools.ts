// The tools a session offers, as one Toolbox over its ToolSources: by default the built-ins,
// the trusted `[[tools.external]]` entries and the cgc code graph, then any sources the agent
// was given (AgentOptions.tools), over one shared tool context with the session's spill
// scope; commands the model runs never see codewhale's provider credentials. Opened by
// compose-session.ts; turn.ts applies a changed list at a turn boundary (`tools/changed`).
import type { Config, Env } from "../config/index.ts";
import { resolveHome } from "../config/index.ts";
import { providerKeyVars, withoutCredentials, withoutProviderKeys } from "../hooks/env.ts";
import {
  createSpillScope,
  knownSecretsFrom,
  type OutputPolicy,
  outputPolicyFor,
  removeIdlePlaceholders,
  type SpillScope,
  sweepStalePlaceholders,
  sweepStaleSpillDirs,
} from "../runner/index.ts";
import type {
  BuiltinToolContext,
  FileAccess,
  ReadGate,
  TerminalHost,
} from "../tools/builtin/index.ts";
import { builtinToolSource, createToolContext } from "../tools/builtin/index.ts";
import { codeGraphSource, externalToolSource, gcfEnabled } from "../tools/external/index.ts";
import { EMPTY_MCP_CATALOG, type McpCatalog } from "../tools/mcp-catalog.ts";
import { setupSandbox } from "../tools/sandbox-setup.ts";
import type { ToolNotice, ToolSource } from "../tools/source.ts";
import { Toolbox } from "../tools/toolbox.ts";
import type { RunContext } from "./run-context.ts";

export interface SessionTools {
  toolbox: Toolbox;
  /** The prompts and resources of the session's MCP servers (empty without servers). */
  mcp: McpCatalog;
  /** The session's spill directory (read, grep and ls may read it). */
  spillDir: string;
  /** The built-in tools' shared context (the user's own `!command` runs in it too). */
  workspace: BuiltinToolContext;
  /** Disposes the sources, stops background processes and removes the spill files. */
  dispose(): Promise<void>;
}

interface SessionToolsOptions {
  sessionId: string;
  cwd: string;
  config: Config;
  env: Env;
  /** Where the session logs are: hidden from sandboxed commands. */
  sessionsDir?: string;
  /** The workspace files configured commands run: read-only to sandboxed commands. */
  runFiles?: readonly string[];
  /** `[[tools.external]]` entries from trusted config only. */
  externalTools: Config["tools"]["external"];
  /** What the permission rules keep the reading tools away from. */
  readGate?: ReadGate;
  /** The hosts web_fetch may reach on private addresses (exact allow rules). */
  privateHosts?: (host: string) => boolean;
  /** Whether a bash command changes no file (it then takes no checkpoint). */
  changesNoFile?: BuiltinToolContext["changesNoFile"];
  /** How read, write and edit reach file text; default the local disk (an editor's, in ACP). */
  files?: FileAccess;
  /** Where bash runs foreground commands; default the local runner (an editor's terminals). */
  terminal?: TerminalHost;
  /** Sources added after the default ones (a clash keeps the earlier source's tool). */
  sources?: readonly ToolSource[];
  /** False: only `sources` (tests that stand in for bash or write). Default true. */
  defaultSources?: boolean;
  /** Offer only the tools of these names (a custom agent's `tools`); absent: all. */
  only?: readonly string[];
  /**
   * Every notice of the sources and the toolbox. An integration that is simply not installed
   * (cgc absent) has level `status`; `codewhale doctor` reports it in full.
   */
  onNotice(notice: ToolNotice): void;
}

/** The default sources, in the order their tools are offered (built-ins first, MCP last). */
async function defaultToolSources(
  options: SessionToolsOptions,
  catalog: CatalogSink = { policy: () => outputPolicyFor(options.config.output), set: () => {} },
): Promise<ToolSource[]> {
  return [
    builtinToolSource(),
    externalToolSource(options.externalTools),
    codeGraphSource({ gcf: gcfEnabled(options.config.output) }),
    ...(await mcpSources(options, catalog)),
  ];
}

/** Where the MCP sources put the session's catalog of prompts and resources. */
interface CatalogSink {
  /** The session's output policy of one tool name (known secrets included). */
  policy(name: string): OutputPolicy;
  set(catalog: McpCatalog): void;
}

/**
 * A source per enabled `[mcp_servers.NAME]` (trusted config only: the loader gates a
 * project's), loaded only when one is configured: the MCP code is its own bundle.
 */
async function mcpSources(options: SessionToolsOptions, sink: CatalogSink): Promise<ToolSource[]> {
  const servers = options.config.mcp_servers;
  if (!Object.values(servers).some((server) => server.enabled)) return [];
  const { authDirOf, createCatalogRegistry, mcpToolSources } = await import(
    "../tools/mcp/index.ts"
  );
  const env = withoutCredentials(options.env, providerKeyVars(options.config.providers));
  const registry = createCatalogRegistry(sink.policy);
  sink.set(registry.catalog);
  return mcpToolSources(servers, {
    env,
    vars: options.env,
    authDir: authDirOf(resolveHome(options.env)),
    onConnected: registry.add,
  });
}

/** The OAuth tokens `mcp login` stored, when a remote server is configured: redacted by value. */
async function mcpAuthSecrets(options: SessionToolsOptions): Promise<string[]> {
  const servers = Object.values(options.config.mcp_servers);
  if (!servers.some((server) => server.enabled && server.url !== undefined)) return [];
  const { authDirOf, storedAuthSecrets } = await import("../tools/mcp/index.ts");
  return storedAuthSecrets(authDirOf(resolveHome(options.env)));
}

export async function createSessionTools(options: SessionToolsOptions): Promise<SessionTools> {
  sweepStaleSpillDirs();
  const spill: SpillScope = createSpillScope(options.sessionId);
  const sandbox = await setupSandbox({
    section: options.config.sandbox,
    workspace: options.cwd,
    env: options.env,
    tempDir: spill.dir,
    ...(options.sessionsDir ? { sessionsDir: options.sessionsDir } : {}),
    ...(options.runFiles ? { runFiles: options.runFiles } : {}),
  });
  if (sandbox.notice) options.onNotice({ message: sandbox.notice, level: "tools" });
  if (sandbox.policy) sweepStalePlaceholders(sandbox.policy);
  const workspace = createToolContext({
    cwd: options.cwd,
    output: options.config.output,
    spill,
    env: withoutProviderKeys(options.env, options.config.providers),
    knownSecrets: knownSecretsFrom(
      options.env,
      providerKeyVars(options.config.providers),
      await mcpAuthSecrets(options),
    ),
    ...(options.readGate ? { readGate: options.readGate } : {}),
    ...(options.privateHosts ? { privateHosts: options.privateHosts } : {}),
    ...(options.changesNoFile ? { changesNoFile: options.changesNoFile } : {}),
    ...(options.files ? { files: options.files } : {}),
    ...(options.terminal ? { terminal: options.terminal } : {}),
    sandbox,
  });
  const closing = new AbortController();
  const cleanUp = async () => {
    closing.abort();
    await workspace.background.dispose();
    // The protected paths' mount points, kept from the session's first command to its end.
    if (sandbox.policy) removeIdlePlaceholders();
    spill.dispose();
  };
  let mcp: McpCatalog = EMPTY_MCP_CATALOG;
  const sink: CatalogSink = {
    policy: workspace.policy,
    set: (catalog) => {
      mcp = catalog;
    },
  };
  const defaults = options.defaultSources === false ? [] : await defaultToolSources(options, sink);
  let toolbox: Toolbox;
  try {
    toolbox = await Toolbox.open({
      sources: [...defaults, ...(options.sources ?? [])],
      context: { sessionId: options.sessionId, workspace, signal: closing.signal },
      output: { policy: workspace.policy, spill },
      onNotice: options.onNotice,
      ...(options.only ? { only: options.only } : {}),
    });
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return {
    toolbox,
    mcp,
    spillDir: spill.dir,
    workspace,
    async dispose() {
      closing.abort();
      await toolbox.dispose();
      await cleanUp();
    },
  };
}

/**
 * At the start of a turn: a tool list that changed since the last turn takes effect now, and
 * is recorded as `tools/changed` before the turn's first request. Called by turn.ts.
 */
export function applyToolChanges(ctx: Pick<RunContext, "tools" | "writer">, turn: number): void {
  const change = ctx.tools.beginTurn();
  if (change) ctx.writer.append({ type: "tools/changed", turn, ...change });
}
