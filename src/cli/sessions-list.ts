// `codewhale sessions list [--cwd DIR | --all] [--limit N] [--json]`: the sessions of this
// directory and below (every session outside a project, or with --all), newest activity
// first, as a table a person reads (short id, local time, turns, cost, workspace, title) or as
// JSON. Reads each log's head and tail, and a byte scan for turns and cost only of the rows
// shown (session/summary.ts). Registered by sessions-command.ts.
import { homedir } from "node:os";
import { isAbsolute, relative, resolve } from "node:path";
import { isWithin, loadConfig, projectRootOf } from "../config/index.ts";
import { UsageError } from "../errors.ts";
import { displayWidth, padToWidth, truncateToWidth } from "../present/display-width.ts";
import { formatCost, plural } from "../present/format.ts";
import { terminalSafeLine } from "../runner/index.ts";
import { listSessionFiles } from "../session/paths.ts";
import { type SessionSummary, summarizeHead, withFigures } from "../session/summary.ts";
import { scanLog } from "../session/summary-scan.ts";
import { cwdOption } from "./cwd-option.ts";
import { positiveInteger } from "./flag-values.ts";
import { printJson, printOut } from "./print.ts";
import { resolveSessionsDir, type SessionDirOptions } from "./session-context.ts";

export interface ListOptions extends SessionDirOptions {
  json?: boolean;
  all?: boolean;
  limit?: string;
}

/** The widest a title may be when stdout is not a terminal (a terminal: what fits). */
const TITLE_WIDTH = 60;

export function listSessions(options: ListOptions): void {
  const listed = listedSessions(options);
  if (options.json) {
    printJson(listed.shown);
    return;
  }
  printOut(`${listLines(listed).join("\n")}\n`);
}

/** What `sessions list` prints, as lines (also the terminal's `/sessions`). */
export function sessionListLines(options: ListOptions): string[] {
  return listLines(listedSessions(options));
}

/**
 * The sessions of the terminal's `/resume` picker: those of `project` and below first, then
 * the rest, each newest activity first.
 */
export function sessionsForPicker(sessionsDir: string, project: string): SessionSummary[] {
  const all = listSessionFiles(sessionsDir).map(summarizeHead).sort(byLastActivity);
  const own = all.filter((s) => s.cwd !== null && isAtOrBelow(s.cwd, project));
  return [...own, ...all.filter((s) => !own.includes(s))].map((summary, index) =>
    index < PICKER_TITLES ? { ...summary, title: scanLog(summary.path).title } : summary,
  );
}

/** The picker's first rows whose logs are scanned for a `/title` (a byte scan each). */
const PICKER_TITLES = 100;

interface Listed {
  base: string;
  scope: string | undefined;
  inScope: SessionSummary[];
  shown: SessionSummary[];
}

function listedSessions(options: ListOptions): Listed {
  if (options.all && options.cwd !== undefined) {
    throw new UsageError("use --cwd or --all, not both");
  }
  const limit = options.limit === undefined ? undefined : positiveInteger("--limit", options.limit);
  const base = cwdOption(options.cwd);
  const scope = options.all ? undefined : scopeOf(base, options);
  const inScope = listSessionFiles(resolveSessionsDir(options))
    .map(summarizeHead)
    .filter((s) => scope === undefined || (s.cwd !== null && isAtOrBelow(s.cwd, scope)))
    .sort(byLastActivity);
  return { base, scope, inScope, shown: inScope.slice(0, limit).map(withFigures) };
}

function listLines({ base, scope, inScope, shown }: Listed): string[] {
  const out = shown.length === 0 ? [noneLine(scope)] : renderTable(shown, base);
  const hidden = inScope.length - shown.length;
  if (hidden > 0)
    out.push(
      `(${plural(hidden, "older session")} not shown; --limit ${inScope.length} shows them)`,
    );
  if (scope !== undefined)
    out.push(`(sessions of ${tildePath(scope)} and below; --all lists every session)`);
  return out;
}

/**
 * The directory whose sessions are listed: `--cwd` as given; else the current directory when
 * it is inside a project; else none (every session).
 */
function scopeOf(base: string, options: ListOptions): string | undefined {
  if (options.cwd !== undefined) return base;
  const { projectRoot } = loadConfig({ cwd: base, env: process.env });
  return projectRootOf(base, projectRoot) === undefined ? undefined : base;
}

function byLastActivity(a: SessionSummary, b: SessionSummary): number {
  const at = (s: SessionSummary) => Date.parse(s.lastActivity ?? s.started ?? "") || 0;
  return at(b) - at(a) || (a.id < b.id ? 1 : -1);
}

function noneLine(scope: string | undefined): string {
  return scope === undefined ? "no sessions" : `no sessions in ${tildePath(scope)} or below`;
}

const HEADER = ["ID", "LAST ACTIVE", "TURNS", "COST", "WORKSPACE", "TITLE"];
/** Right-aligned columns (numbers). */
const RIGHT = new Set([2, 3]);

function renderTable(rows: readonly SessionSummary[], base: string): string[] {
  const cells = rows.map((s) => [
    s.shortId,
    localTime(s.lastActivity ?? s.started),
    String(s.turns),
    costCell(s),
    s.cwd === null ? "?" : terminalSafeLine(workspaceOf(s.cwd, base)),
    sessionTitle(s),
  ]);
  const widths = HEADER.map((head, i) =>
    Math.max(
      head.length,
      ...cells.map((row) => (i === HEADER.length - 1 ? 0 : displayWidth(row[i]!))),
    ),
  );
  const fixed = widths.slice(0, -1).reduce((sum, width) => sum + width + 2, 0);
  const titleWidth = Math.max(
    20,
    (process.stdout.isTTY ? process.stdout.columns || 100 : fixed + TITLE_WIDTH) - fixed,
  );
  const line = (row: string[]) =>
    row
      .map((cell, i) => {
        if (i === row.length - 1) return truncateToWidth(cell, titleWidth);
        return padToWidth(cell, widths[i]!, RIGHT.has(i));
      })
      .join("  ")
      .trimEnd();
  return [line(HEADER), ...cells.map(line)];
}

/** The cost to the cent; "-" before any completed request, "?" when the price is unknown. */
function costCell(summary: SessionSummary): string {
  if (summary.cost !== null) return formatCost(summary.cost);
  return summary.tokens === 0 ? "-" : "?";
}

/**
 * The session's title (`/title`), else its first prompt, on one line, controls and bidi
 * overrides escaped; a damaged head says so.
 */
export function sessionTitle(summary: SessionSummary): string {
  const text =
    summary.title ??
    summary.firstPrompt ??
    (summary.damaged ? `(${summary.damaged})` : "(no prompt)");
  return terminalSafeLine(text.replace(/\s+/g, " ").trim());
}

/** "YYYY-MM-DD HH:MM" in the local time zone; "?" for a missing or unreadable time. */
export function localTime(iso: string | null): string {
  const date = new Date(iso ?? Number.NaN);
  if (Number.isNaN(date.getTime())) return "?";
  const two = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** "." for the listing's directory, a relative path below it, else the path with `~`. */
function workspaceOf(cwd: string, base: string): string {
  if (isAtOrBelow(cwd, base)) return relative(base, cwd) || ".";
  return tildePath(cwd);
}

/** `isWithin` for a cwd read from a log: a relative one (a hand-made log) is in no scope. */
function isAtOrBelow(path: string, dir: string): boolean {
  return isAbsolute(path) && isWithin(resolve(path), resolve(dir));
}

function tildePath(path: string): string {
  const home = homedir();
  return home !== "/" && isAtOrBelow(path, home) ? `~${path.slice(home.length)}` : path;
}
