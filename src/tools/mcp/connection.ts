// One live MCP server: the SDK Client over the server's transport, started within
// `startup_timeout_ms`, its tool list (all pages), calls with the tool timeout, the caller's
// cancel and progress, and one restart when the server goes away unexpectedly (a call running
// then fails with an error result; the next call waits for the restart). Used by source.ts,
// and by `codewhale mcp`/doctor to probe a server.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import type { McpServerConfig } from "../../config/index.ts";
import { errorMessage } from "../../errors.ts";
import { redactText, stripControls } from "../../runner/index.ts";
import { VERSION } from "../../version.ts";
import { maskedFor, serverSecrets } from "./server-secrets.ts";
import { type BuiltTransport, buildTransport, type TransportOptions } from "./transport.ts";

/** At most this many pages of tools are read from one server. */
const MAX_TOOL_PAGES = 20;

export interface CallOptions {
  signal: AbortSignal;
  onProgress?: (update: { progress: number; total?: number; message?: string }) => void;
}

export interface ConnectionEvents {
  /** The server's tool list changed (list_changed, or a restart listed other tools). */
  toolsChanged(): void;
  /** Something the user should know after start (the server went away, a restart failed). */
  notice(message: string): void;
}

export type StartResult =
  | { ok: true; connection: McpConnection }
  | { ok: false; reason: string; needsLogin?: boolean };

/** Why a server that needs the user to sign in did not start (or a call failed). */
export function needsLoginReason(name: string): string {
  return `needs authorization: run \`codewhale mcp login ${name}\``;
}

/** A tool the server listed in a shape MCP does not allow. */
export interface RefusedTool {
  name: string;
  problem: string;
}

interface Live {
  client: Client;
  built: BuiltTransport;
  tools: McpTool[];
  refused: RefusedTool[];
}

/** The tools/list result taken loosely: each tool is checked on its own (one bad tool is one notice). */
const LOOSE_TOOL_LIST = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

export class McpConnection {
  private restarts = 0;
  private closing = false;
  private restarting: Promise<Live | null> | null = null;

  private constructor(
    readonly name: string,
    private readonly server: McpServerConfig,
    private readonly options: TransportOptions,
    private readonly events: ConnectionEvents,
    private live: Live | null,
    private readonly mask: (text: string) => string,
  ) {
    if (live) this.watch(live);
  }

  /** Starts the server and lists its tools, or says why not. Never rejects. */
  static async start(
    name: string,
    server: McpServerConfig,
    options: TransportOptions,
    events: ConnectionEvents,
    signal?: AbortSignal,
  ): Promise<StartResult> {
    // Every reason and notice passes this: a url's password, a `--token` argument, an env
    // value may be echoed by an error message or the server's stderr.
    const mask = maskedFor(serverSecrets(server, options.vars));
    const masked = {
      toolsChanged: () => events.toolsChanged(),
      notice: (m: string) => events.notice(mask(m)),
    };
    const started = await startLive(name, server, options, masked, signal);
    if (!started.ok) return { ...started, reason: mask(started.reason) };
    const connection = new McpConnection(name, server, options, masked, started.live, mask);
    return { ok: true, connection };
  }

  /** The tools the server lists now (empty while it is down). */
  tools(): readonly McpTool[] {
    return this.live?.tools ?? [];
  }

  /** The tools of the last list left out for their shape. */
  refused(): readonly RefusedTool[] {
    return this.live?.refused ?? [];
  }

  /** What the server said it is, for `mcp list`. */
  serverInfo(): { name: string; version: string } | undefined {
    return this.live?.client.getServerVersion();
  }

  get target(): string {
    return this.live?.built.target ?? "";
  }

  get client(): Client | undefined {
    return this.live?.client;
  }

  /** Calls tool `tool` (its MCP name); a transport failure or timeout rejects with a reason. */
  async call(
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallToolResult> {
    const live = this.live ?? (await this.restarting);
    if (!live) throw new Error(`MCP server "${this.name}" is not running`);
    const { CallToolResultSchema } = await import("@modelcontextprotocol/sdk/types.js");
    // A signal of this call only: the SDK never removes the listener it adds to the one it is
    // given, and a turn's signal serves many calls.
    const call = new AbortController();
    const abort = () => call.abort(options.signal.reason);
    if (options.signal.aborted) abort();
    else options.signal.addEventListener("abort", abort, { once: true });
    try {
      const result = await live.client.callTool(
        { name: tool, arguments: args },
        CallToolResultSchema,
        {
          signal: call.signal,
          timeout: this.server.tool_timeout_ms,
          maxTotalTimeout: this.server.tool_timeout_ms,
          ...(options.onProgress ? { onprogress: options.onProgress } : {}),
        },
      );
      return result as CallToolResult;
    } catch (error) {
      throw new Error(this.mask(this.failure(live, error)));
    } finally {
      options.signal.removeEventListener("abort", abort);
    }
  }

  /** Closes the client and stops the server. Never rejects. */
  async close(): Promise<void> {
    this.closing = true;
    const live = this.live ?? (await this.restarting?.catch(() => null)) ?? null;
    this.live = null;
    await live?.client.close().catch(() => {});
  }

  /** Why a call failed, with the server's last stderr line when it went away. */
  private failure(live: Live, error: unknown): string {
    if ((error as { code?: unknown }).code === -32001) {
      return `MCP server "${this.name}" did not answer within ${this.server.tool_timeout_ms} ms (tool_timeout_ms)`;
    }
    if (live.built.needsLogin()) return `MCP server "${this.name}" ${needsLoginReason(this.name)}`;
    const detail = errorMessage(error).replace(/^MCP error -?\d+: /, "");
    if (this.live === live && !/Connection closed/i.test(detail)) return detail;
    const last = lastLine(live.built.stderrTail());
    return `MCP server "${this.name}" went away during the call${last ? ` (stderr: ${last})` : ""}`;
  }

  private watch(live: Live): void {
    live.client.onclose = () => {
      if (this.live !== live) return;
      this.live = null;
      if (this.closing) return;
      this.restart(live);
    };
  }

  /** Restarts once per session; a second exit leaves the server down, with a notice. */
  private restart(dead: Live): void {
    const last = lastLine(dead.built.stderrTail());
    const why = `MCP server "${this.name}" exited${last ? ` (stderr: ${last})` : ""}`;
    if (this.restarts >= 1) {
      this.events.notice(`${why}; not restarted again, its tools are gone for this session`);
      this.events.toolsChanged();
      return;
    }
    this.restarts += 1;
    const before = JSON.stringify(dead.tools);
    this.restarting = startLive(this.name, this.server, this.options, this.events).then(
      (started) => {
        this.restarting = null;
        if (!started.ok || this.closing) {
          if (started.ok) void started.live.client.close().catch(() => {});
          else this.events.notice(`${why}; the restart failed: ${started.reason}`);
          this.events.toolsChanged();
          return null;
        }
        this.live = started.live;
        this.watch(started.live);
        this.events.notice(`${why}; restarted`);
        if (JSON.stringify(started.live.tools) !== before) this.events.toolsChanged();
        return started.live;
      },
    );
  }
}

async function startLive(
  name: string,
  server: McpServerConfig,
  options: TransportOptions,
  events: ConnectionEvents,
  signal?: AbortSignal,
): Promise<{ ok: true; live: Live } | { ok: false; reason: string; needsLogin?: boolean }> {
  const built = await buildTransport(name, server, options);
  if (!built.ok) return { ok: false, reason: built.problem };
  const [{ Client }, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  const client = new Client({ name: "codewhale", version: VERSION }, { capabilities: {} });
  const live: Live = { client, built: built.built, tools: [], refused: [] };
  const timeout = server.startup_timeout_ms;
  const timer = new AbortController();
  const stop = setTimeout(() => timer.abort(), timeout);
  const abort = () => timer.abort();
  signal?.addEventListener("abort", abort, { once: true });
  try {
    await client.connect(built.built.transport, { signal: timer.signal, timeout });
    Object.assign(live, await listAllTools(client, timer.signal, timeout));
  } catch (error) {
    await client.close().catch(() => {});
    if (built.built.needsLogin())
      return { ok: false, reason: needsLoginReason(name), needsLogin: true };
    const last = lastLine(built.built.stderrTail());
    const reason = timer.signal.aborted
      ? signal?.aborted
        ? "the session closed first"
        : `it did not answer within ${timeout} ms (startup_timeout_ms)`
      : errorMessage(error).replace(/^MCP error -?\d+: /, "");
    return { ok: false, reason: last ? `${reason} (stderr: ${last})` : reason };
  } finally {
    clearTimeout(stop);
    signal?.removeEventListener("abort", abort);
  }
  client.setNotificationHandler(types.ToolListChangedNotificationSchema, async () => {
    try {
      Object.assign(live, await listAllTools(client, undefined, server.startup_timeout_ms));
      events.toolsChanged();
    } catch (error) {
      events.notice(
        `MCP server "${name}": listing its changed tools failed: ${errorMessage(error)}`,
      );
    }
  });
  return { ok: true, live };
}

async function listAllTools(
  client: Client,
  signal: AbortSignal | undefined,
  timeout: number,
): Promise<{ tools: McpTool[]; refused: RefusedTool[] }> {
  const tools: McpTool[] = [];
  const refused: RefusedTool[] = [];
  if (!client.getServerCapabilities()?.tools) return { tools, refused };
  const { ToolSchema } = await import("@modelcontextprotocol/sdk/types.js");
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const listed = await client.request(
      { method: "tools/list", params: cursor ? { cursor } : {} },
      LOOSE_TOOL_LIST,
      { ...(signal ? { signal } : {}), timeout },
    );
    for (const raw of listed.tools) {
      const checked = ToolSchema.safeParse(raw);
      if (checked.success) tools.push(checked.data);
      else refused.push({ name: nameOf(raw), problem: firstIssue(checked.error.issues) });
    }
    cursor = listed.nextCursor;
    if (!cursor) break;
  }
  return { tools, refused };
}

function nameOf(raw: unknown): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === "string" ? stripControls(name).slice(0, 100) : "(unnamed)";
}

function firstIssue(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  const issue = issues[0];
  if (!issue) return "not a valid MCP tool";
  return `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`;
}

/** The last stderr line, controls stripped and secrets redacted: it goes into notices. */
function lastLine(text: string): string {
  const lines = stripControls(text)
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return redactText((lines.at(-1) ?? "").slice(0, 200));
}
