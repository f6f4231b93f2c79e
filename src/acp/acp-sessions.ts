// The sessions one `codewhale acp` process holds, by session id (the codewhale session id):
// opening one for session/new, load and resume (each its own agent, bus, log and tools, so
// they stay isolated; file tools and bash through the client's fs and terminals when it offers
// them), reopening one with another model or thinking level, listing the stored ones for
// session/list, closing one or all (when the client goes away). Called by acp-agent.ts.
import { existsSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import type {
  AgentContext,
  ClientCapabilities,
  McpServer,
  SessionInfo,
} from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import type { BusEvents, Receipts } from "../agent/index.ts";
import { Agent } from "../agent/index.ts";
import { createBus } from "../bus/bus.ts";
import { type Env, type LoadedConfig, loadConfig, sessionsDir } from "../config/index.ts";
import { providerKeyVars } from "../hooks/index.ts";
import { findSession, isSessionId, listSessionFiles } from "../session/paths.ts";
import { summarizeHead } from "../session/summary.ts";
import { scanLog } from "../session/summary-scan.ts";
import type { ToolSource } from "../tools/source.ts";
import { AcpSession, type OpenedAgent, type Overrides } from "./acp-session.ts";
import { clientFiles } from "./client-files.ts";
import { clientTerminals } from "./client-terminals.ts";
import { contextWindowFrom } from "./event-updates.ts";
import { type EditorMcpServers, mcpServersFor, withEditorServers } from "./mcp-servers.ts";
import { missingKeyVariable, PROVIDER_KEY_METHOD } from "./provider-key.ts";
import { titleOf } from "./session-title.ts";

export interface AcpOptions {
  /** The environment codewhale started with, provider keys included: to resolve providers. */
  env: Env;
  /** `--model`: the model of every new session. */
  model?: string;
  /** `--session-dir`: where session logs live. */
  sessionDir?: string;
  /** Tool sources each session offers after its own (the built-ins, config's external tools). */
  tools?: () => readonly ToolSource[];
  /** Takes the named provider key variables out of the process, so no tool inherits them. */
  hideCredentials(names: readonly string[]): void;
  /** The user's signing key and index: checkpoints are signed, resumed logs checked. */
  receipts(): Receipts;
  /** One line for whoever reads stderr (never stdout: it carries the protocol). */
  diagnostic(line: string): void;
}

/**
 * How a session is opened: a new log (under a known id when a session reopens before its
 * first prompt, which has no log yet), or a stored one with or without its history replayed.
 */
type Opening = { kind: "new"; sessionId?: string } | { kind: "load" | "resume"; sessionId: string };

const PAGE = 100;

export class AcpSessions {
  private readonly open = new Map<string, AcpSession>();
  /** Sessions being opened: a second load of the same id is refused while one runs. */
  private readonly opening = new Set<string>();
  /** What the client offered at initialize (fs, terminal). */
  private capabilities: ClientCapabilities = {};

  constructor(private readonly options: AcpOptions) {}

  /** The client's capabilities, as its `initialize` gave them. */
  initialize(capabilities: ClientCapabilities | undefined): void {
    this.capabilities = capabilities ?? {};
  }

  /**
   * `authenticate` with the provider-key method: succeeds when the key of the model new
   * sessions use (`--model`, else config `model` of the agent's directory) is set; otherwise
   * "authentication required" naming the variable.
   */
  authenticate(methodId: string): void {
    if (methodId !== PROVIDER_KEY_METHOD) {
      throw RequestError.invalidParams({ methodId }, `unknown auth method "${methodId}"`);
    }
    const { config } = this.config(process.cwd());
    const modelId = this.options.model ?? config.model;
    const variable = missingKeyVariable(config, modelId, this.options.env);
    if (variable !== undefined) {
      throw RequestError.authRequired({ variable }, `set ${variable} for the model ${modelId}`);
    }
  }

  get(sessionId: string): AcpSession {
    const session = this.open.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  }

  /** Opens a session; `servers` are the editor's MCP servers, connected beside the config's. */
  async start(
    client: AgentContext,
    cwd: string,
    opening: Opening,
    servers?: readonly McpServer[],
  ): Promise<AcpSession> {
    const key = opening.kind === "new" ? undefined : opening.sessionId;
    if (key !== undefined && (this.open.has(key) || this.opening.has(key))) {
      throw RequestError.invalidRequest({ sessionId: key }, "the session is already open here");
    }
    if (key !== undefined) this.opening.add(key);
    try {
      const directory = checkedCwd(cwd);
      const editors = mcpServersFor(servers, this.options.diagnostic);
      const session: AcpSession = new AcpSession({
        client,
        env: this.options.env,
        reopen: (overrides) =>
          this.openAgent(session, directory, reopening(session), overrides, editors),
      });
      const opened = await this.openAgent(session, directory, opening, {}, editors, true);
      this.open.set(opened.agent.sessionId, session);
      session.use(opened, opening.kind === "load");
      return session;
    } finally {
      if (key !== undefined) this.opening.delete(key);
    }
  }

  async close(sessionId: string): Promise<void> {
    const session = this.get(sessionId);
    this.open.delete(sessionId);
    await session.close();
  }

  /** Every open session, each turn cancelled and its log closed (the client went away). */
  async closeAll(): Promise<void> {
    const sessions = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(sessions.map((session) => session.close()));
  }

  /** The stored sessions, newest first, of `cwd` when given; `cursor` is where a page starts. */
  list(cwd: string | null | undefined, cursor: string | null | undefined) {
    const loaded = this.config(cwd ?? process.cwd());
    const from = cursor ? Number.parseInt(cursor, 10) : 0;
    if (!Number.isSafeInteger(from) || from < 0) throw RequestError.invalidParams({ cursor });
    const summaries = listSessionFiles(sessionsDir(loaded, this.options.sessionDir))
      .map(summarizeHead)
      .filter((summary) => !summary.damaged && (!cwd || summary.cwd === cwd));
    const page = summaries.slice(from, from + PAGE);
    const sessions: SessionInfo[] = page.map((summary) => {
      // One byte scan of the log for its newest `session/title`.
      const { title } = scanLog(summary.path);
      return {
        sessionId: summary.id,
        cwd: summary.cwd ?? "",
        title: title !== null ? titleOf(title) : untitled(summary.firstPrompt),
        updatedAt: statSync(summary.path).mtime.toISOString(),
      };
    });
    const next = from + PAGE < summaries.length ? String(from + PAGE) : null;
    return { sessions, ...(next ? { nextCursor: next } : {}) };
  }

  private async openAgent(
    session: AcpSession,
    cwd: string,
    opening: Opening,
    overrides: Overrides,
    editors: EditorMcpServers,
    announce = false,
  ): Promise<OpenedAgent> {
    const replaced = announce ? this.options.diagnostic : undefined;
    const loaded = withEditorServers(this.config(cwd), editors, replaced);
    const keyVariables = providerKeyVars(loaded.config.providers);
    this.options.hideCredentials(keyVariables);
    const dir = sessionsDir(loaded, this.options.sessionDir);
    const resume = opening.kind === "new" ? undefined : storedSession(dir, opening.sessionId);
    const chosen = overrides.model ?? this.options.model;
    const modelId = chosen ?? resume?.model ?? loaded.config.model;
    const variable = missingKeyVariable(loaded.config, modelId, this.options.env);
    if (variable !== undefined) {
      throw RequestError.authRequired({ variable }, `set ${variable} for the model ${modelId}`);
    }
    const bus = createBus<BusEvents>();
    bus.on("agent/notice", ({ message }) => this.options.diagnostic(message));
    const { client } = session.host;
    const sessionId = () => session.id;
    const shown = (callId: string, terminalId: string) => session.showTerminal(callId, terminalId);
    const files = clientFiles(client, this.capabilities, sessionId);
    const terminal = clientTerminals(client, this.capabilities, { sessionId, keyVariables }, shown);
    const agent = await Agent.open({
      bus,
      loaded,
      env: this.options.env,
      cwd,
      sessionsDir: dir,
      ...(chosen ? { modelOverride: chosen } : {}),
      ...(resume ? { resume: resume.id } : {}),
      ...(opening.kind === "new" && opening.sessionId ? { sessionId: opening.sessionId } : {}),
      ...(files ? { files } : {}),
      ...(terminal ? { terminal } : {}),
      ...(this.options.tools ? { tools: this.options.tools() } : {}),
      receipts: this.options.receipts(),
    });
    const contextWindow = contextWindowFrom(loaded.config.models);
    return { agent, config: loaded.config, contextWindow };
  }

  private config(cwd: string): LoadedConfig {
    return loadConfig({ cwd, env: this.options.env });
  }
}

/** A session reopens its log; before its first prompt it has none, and starts it anew. */
function reopening(session: AcpSession): Opening {
  const sessionId = session.id;
  return existsSync(session.agent.logPath)
    ? { kind: "resume", sessionId }
    : { kind: "new", sessionId };
}

/** The stored log of an exact session id, with its model; an unknown id is "not found". */
function storedSession(dir: string, sessionId: string): { id: string; model: string | null } {
  if (!isSessionId(sessionId)) throw RequestError.sessionNotFound(sessionId);
  let path: string;
  try {
    path = findSession(dir, sessionId);
  } catch {
    throw RequestError.sessionNotFound(sessionId);
  }
  // The model is in the log's head: no byte scan of the whole log for it.
  return { id: sessionId, model: summarizeHead(path).model };
}

/** ACP paths are absolute; the directory must exist. */
function checkedCwd(cwd: string): string {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, "cwd must be an absolute path");
  let directory = false;
  try {
    directory = statSync(cwd).isDirectory();
  } catch {
    directory = false;
  }
  if (!directory) throw RequestError.invalidParams({ cwd }, "cwd is not a directory");
  return cwd;
}

function untitled(firstPrompt: string | null): string | null {
  return firstPrompt === null ? null : titleOf(firstPrompt);
}
