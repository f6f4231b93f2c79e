// The slash commands about stored sessions: `/sessions`, `/resume` (a picker that searches the
// sessions' content as you type), `/search QUERY`, `/export [md|html] [path]`, `/stats` and
// `/verify`. The work is the CLI's own code (`sessions list`, `sessions
// stats`, `sessions verify`, `export`), handed in as `SessionCommands` by chat-command.ts so
// the terminal bundle carries no second copy; this file parses the arguments and turns each
// answer into transcript lines. Called by app.ts.
import { isAbsolute, join } from "node:path";
import type { SelectItem } from "@mariozechner/pi-tui";
import type { Agent } from "../agent/index.ts";
import { terminalSafe as safe } from "../runner/index.ts";
import type { SessionEvent } from "../session/events.ts";
import type { Theme } from "./theme.ts";

export type ExportFormat = "md" | "html";

export interface SessionCommands {
  /** `sessions list` for the workspace, as lines. */
  list(): string[];
  /** The sessions to resume: this project's first, each newest first. */
  pickable(): SelectItem[];
  /** `sessions stats` of one log, as lines. */
  stats(logPath: string): string[];
  /** `sessions verify` of one log, as lines; throws naming the first problem. */
  verify(logPath: string): string[];
  /** `export --format <format> -o <output>` of one log; the line saying what was written. */
  exportTo(logPath: string, format: ExportFormat, output: string): Promise<string>;
  /** The events of a subagent's session, for its card on a resume; undefined: unreadable. */
  childEvents(sessionId: string): readonly SessionEvent[] | undefined;
  /**
   * Opens the search index for `/resume` when one exists, brought up to date; false when there
   * is none (the picker then filters titles and prompts only).
   */
  openSearch(): Promise<boolean>;
  /** `/resume` as you type, once openSearch() said true: sessions whose content matches. */
  searchSessions(query: string): SelectItem[];
  /** `/search QUERY`: the matches, best first, each item's value `<session id> <seq>`. */
  searchMatches(query: string, exceptSession: string): Promise<SelectItem[]>;
}

export type ExportArgs =
  | { ok: true; format: ExportFormat; output: string }
  | { ok: false; message: string };

/**
 * `/export [md|html] [path]`: the format (md by default) and where to (relative to the
 * workspace; by default `codewhale-<short id>.<format>` in it).
 */
export function parseExportArgs(argument: string, cwd: string, shortId: string): ExportArgs {
  const words = argument.split(/\s+/).filter(Boolean);
  let format: ExportFormat = "md";
  if (words[0] === "md" || words[0] === "html") format = words.shift() as ExportFormat;
  if (words.length > 1) return { ok: false, message: "/export takes [md|html] [path]" };
  const given = words[0] ?? `codewhale-${shortId}.${format}`;
  return { ok: true, format, output: isAbsolute(given) ? given : join(cwd, given) };
}

export interface SessionCommandContext {
  commands: SessionCommands;
  agent: Agent;
  cwd: string;
  theme: Theme;
}

/** `/sessions`, `/stats`, `/verify`, `/export` on the open session: lines, or one error line. */
export async function runSessionCommand(
  name: "sessions" | "stats" | "verify" | "export",
  argument: string,
  { commands, agent, cwd, theme }: SessionCommandContext,
): Promise<string> {
  const log = agent.logPath;
  try {
    if (name === "sessions") return commands.list().map(safe).join("\n");
    if (name === "stats") return commands.stats(log).map(safe).join("\n");
    if (name === "verify") return theme.good(commands.verify(log).map(safe).join("\n"));
    const args = parseExportArgs(argument, cwd, agent.sessionId.slice(0, 8));
    if (!args.ok) return theme.warn(args.message);
    return safe(await commands.exportTo(log, args.format, args.output));
  } catch (error) {
    return theme.bad(safe(error instanceof Error ? error.message : String(error)));
  }
}
