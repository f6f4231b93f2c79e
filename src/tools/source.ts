// The tool-source seam: where a session's tools come from. A ToolSource is opened once per
// session with the session's shared context and answers its tools, notices for the user and a
// dispose; a source whose list changes later (an MCP server's list_changed) calls
// `listChanged()` and the toolbox reads `tools()` again at the next turn boundary. The
// built-in, `[[tools.external]]` and code-graph sources live beside their tools.
import type { BuiltinToolContext } from "./builtin/context.ts";
import type { Tool } from "./types.ts";

/**
 * A line for the person running the session. `status`: an optional integration is simply not
 * there (headless surfaces show it only on a terminal); `tools`: something failed.
 */
export interface ToolNotice {
  message: string;
  level: "status" | "tools";
}

/** What a source is opened with: the session and the ways to talk back after open. */
export interface ToolSourceContext {
  readonly sessionId: string;
  /**
   * The session's shared tool context: workspace, per-tool output policy, spill scope, the
   * environment without codewhale's own provider keys, background processes, read gate.
   */
  readonly workspace: BuiltinToolContext;
  /** Aborted when the session closes (a source's pending startup should give up). */
  readonly signal: AbortSignal;
  /** The source's list changed; it takes effect at the next turn boundary, never mid-turn. */
  listChanged(): void;
  /** A notice after open (a server that went away, a tool whose schema was refused). */
  notice(notice: ToolNotice): void;
}

/** A source once opened. */
export interface OpenToolSource {
  /** The source's tools now, in the order the model should see them. */
  tools(): readonly Tool[];
  /** Notices from opening (an integration off, an entry left out). */
  readonly notices: readonly ToolNotice[];
  /** Stops what the source started (processes, connections). Never rejects. */
  dispose(): Promise<void>;
}

export interface ToolSource {
  /** Names the source in notices and in `tools/changed` (`builtin`, `mcp:<server>`, …). */
  readonly name: string;
  /**
   * Opens the source. May take a while (a server starting): sources open concurrently, and
   * the session waits for all. A source that should not hold the session up answers at once
   * with what it has and calls `listChanged()` when it is ready. A failure a user should know
   * of is a notice, not a rejection; a rejection (a ConfigError of a bad entry) stops the
   * session from opening.
   */
  open(context: ToolSourceContext): Promise<OpenToolSource>;
}

/** A source of a fixed list of tools (tests, embedders). */
export function staticToolSource(name: string, tools: readonly Tool[]): ToolSource {
  return {
    name,
    open: async () => ({ tools: () => tools, notices: [], dispose: async () => {} }),
  };
}
