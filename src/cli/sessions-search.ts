// `codewhale sessions search QUERY`, `sessions forget ID` and `sessions reindex`: the search
// index over the session logs (src/search, docs/search.md). Each search first brings the index
// up to date with the logs; a hit names the session and the event's seq, which
// `sessions show ID --at SEQ` opens. Registered by sessions-command.ts.
import { join } from "node:path";
import type { Command } from "commander";
import { resolveHome } from "../config/index.ts";
import { ExitCode, UsageError } from "../errors.ts";
import { jsonSafe, terminalSafeLine } from "../runner/index.ts";
import {
  openSearchIndex,
  rebuildSearchIndex,
  type SearchFilters,
  type SearchHit,
} from "../search/index.ts";
import { deleteSessionLog } from "../session/delete.ts";
import { findSession, sessionIdOfPath } from "../session/paths.ts";
import { confirmOnTerminal } from "./confirm.ts";
import { resolveSessionsDir, type SessionDirOptions } from "./session-context.ts";

interface SearchOptions extends SessionDirOptions {
  dir?: string;
  since?: string;
  until?: string;
  model?: string;
  tool?: string;
  file?: string;
  thinking?: boolean;
  limit?: string;
  json?: boolean;
}

interface ForgetOptions extends SessionDirOptions {
  delete?: boolean;
  yes?: boolean;
}

type WithDir = (command: Command) => Command;

export function registerSearchCommands(sessions: Command, withDir: WithDir): void {
  withDir(sessions.command("search <query...>"))
    .description('search every session\'s prompts, answers, tool calls and results ("a phrase")')
    .option("--dir <dir>", "sessions of this project directory and below")
    .option("--since <date>", "events at or after this date (YYYY-MM-DD or ISO-8601)")
    .option("--until <date>", "events before this date")
    .option("--model <model>", "events under this model (or a part of its name)")
    .option("--tool <name>", "calls and results of this tool only")
    .option("--file <path>", "sessions whose tool calls named this path")
    .option("--thinking", "search the model's thinking too (left out unless asked)")
    .option("--limit <n>", "at most this many hits (default 20)")
    .option("--json", "print the hits as a JSON array")
    .action((query: string[], options: SearchOptions) => searchSessions(query.join(" "), options));
  withDir(sessions.command("forget <id>"))
    .description("remove a session from the search index (its log stays, unless --delete)")
    .option("--delete", "also delete its log and checkpoints, after confirming on a terminal")
    .option("--yes", "with --delete: delete without asking (for scripts)")
    .action((id: string, options: ForgetOptions) => forgetSession(id, options));
  withDir(sessions.command("reindex"))
    .description("rebuild the search index from the session logs")
    .action((options: SessionDirOptions) => reindex(options));
}

function indexOptions(options: SessionDirOptions) {
  return { home: resolveHome(process.env), sessionsDir: resolveSessionsDir(options) };
}

async function searchSessions(query: string, options: SearchOptions): Promise<void> {
  const index = await openSearchIndex(indexOptions(options));
  try {
    const report = index.sync();
    for (const { path, reason } of report.damaged) {
      process.stderr.write(
        `codewhale: ${terminalSafeLine(path)} is indexed up to its damage: ${terminalSafeLine(reason)}\n`,
      );
    }
    const hits = index.search(query, filtersOf(options));
    if (options.json) process.stdout.write(`${jsonSafe(JSON.stringify(hits))}\n`);
    else process.stdout.write(hits.map(hitText).join(""));
    process.exitCode = hits.length > 0 ? ExitCode.ok : ExitCode.failure;
  } finally {
    index.close();
  }
}

function filtersOf(options: SearchOptions): SearchFilters {
  const filters: SearchFilters = {};
  if (options.dir !== undefined) filters.dir = options.dir;
  if (options.since !== undefined) filters.since = dateOption("--since", options.since);
  if (options.until !== undefined) filters.until = dateOption("--until", options.until);
  if (options.model !== undefined) filters.model = options.model;
  if (options.tool !== undefined) filters.tool = options.tool;
  if (options.file !== undefined) filters.file = options.file;
  if (options.thinking) filters.thinking = true;
  if (options.limit !== undefined) {
    const limit = Number(options.limit);
    if (!Number.isInteger(limit) || limit < 1)
      throw new UsageError("--limit: expected a positive integer");
    filters.limit = limit;
  }
  return filters;
}

/** A date option as the ISO-8601 form the log's `ts` compares with. */
function dateOption(flag: string, value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time))
    throw new UsageError(`${flag}: expected a date (YYYY-MM-DD or ISO-8601), got ${value}`);
  return new Date(time).toISOString();
}

/** One hit: its place (id, seq, when, what), then the snippet with its matches in bold. */
function hitText(hit: SearchHit): string {
  const what = hit.tool ? `${hit.kind} ${hit.tool}` : hit.kind;
  const title = hit.title ? `  ${hit.title}` : "";
  const head = `${hit.sessionId} --at ${hit.seq}  ${hit.ts.slice(0, 16)}  ${what}  ${hit.cwd}${title}`;
  return `${terminalSafeLine(head)}\n  ${highlighted(hit)}\n`;
}

function highlighted(hit: SearchHit): string {
  const bold = process.stdout.isTTY === true;
  let out = "";
  let at = 0;
  for (const [start, end] of hit.highlights) {
    out += terminalSafeLine(hit.snippet.slice(at, start));
    const match = terminalSafeLine(hit.snippet.slice(start, end));
    out += bold ? `\u001b[1m${match}\u001b[22m` : `[${match}]`;
    at = end;
  }
  return out + terminalSafeLine(hit.snippet.slice(at));
}

async function forgetSession(id: string, options: ForgetOptions): Promise<void> {
  const dirOptions = indexOptions(options);
  const path = findSession(dirOptions.sessionsDir, id);
  const sessionId = sessionIdOfPath(path);
  if (options.delete && !(await deleteSession(path, sessionId, dirOptions.home, options))) {
    process.stdout.write(`left unchanged: ${terminalSafeLine(path)}\n`);
    process.exitCode = ExitCode.failure;
    return;
  }
  const index = await openSearchIndex(dirOptions);
  try {
    index.forget(sessionId);
  } finally {
    index.close();
  }
  process.stdout.write(
    options.delete
      ? `deleted ${sessionId}: its log, its checkpoints and its place in the search index\n`
      : `forgot ${sessionId} in the search index (its log stays)\n`,
  );
}

/** Deletes the log and checkpoint store under the writer lock, once confirmed. */
function deleteSession(path: string, sessionId: string, home: string, options: ForgetOptions) {
  const checkpoints = join(home, "checkpoints", sessionId);
  const what = `${path} and its checkpoints (${checkpoints})`;
  return deleteSessionLog(path, [checkpoints], () =>
    confirmOnTerminal(`Delete ${what} for good?`, {
      ...options,
      refusal: `deleting ${what} needs a yes: no terminal to ask on, rerun with --yes`,
    }),
  );
}

async function reindex(options: SessionDirOptions): Promise<void> {
  const report = await rebuildSearchIndex(indexOptions(options));
  process.stdout.write(`indexed ${report.logs} session logs, ${report.events} events\n`);
  for (const { path, reason } of report.damaged) {
    process.stdout.write(
      `  ${terminalSafeLine(path)}: indexed up to its damage (${terminalSafeLine(reason)})\n`,
    );
  }
}
