// `codewhale sessions stats <session> [--json]`: the four figures of a stored session kept
// apart (bytes per view, storage bytes by event type, replay tokens beside the provider's
// input tokens, cache per request and the hit ratio) and cost per turn and in total, as a
// report or JSON. The figures are present/session-stats.ts's; this file reads the log and its
// line sizes and renders. Registered by sessions-command.ts.
import { closeSync, openSync, readSync } from "node:fs";
import { formatCost, formatCostDetail, formatCount, plural } from "../present/format.ts";
import { type CacheFigures, type SessionStats, sessionStats } from "../present/session-stats.ts";
import { findSession } from "../session/paths.ts";
import { printJson, printOut } from "./print.ts";
import { childrenCost } from "./session-children.ts";
import { resolveSessionsDir, type SessionDirOptions } from "./session-context.ts";
import { readShown, showText } from "./session-show.ts";

export interface StatsOptions extends SessionDirOptions {
  json?: boolean;
}

export function printSessionStats(id: string, options: StatsOptions): void {
  const stats = statsOfLog(findSession(resolveSessionsDir(options), id));
  if (options.json) printJson(stats);
  else printOut(`${renderStats(stats).join("\n")}\n`);
}

/** The report `sessions stats` prints, as lines (also the terminal's `/stats`). */
export function sessionStatsLines(path: string): string[] {
  return renderStats(statsOfLog(path));
}

/** The figures, and the subagent sessions' cost rolled up when the session ran any. */
type LogStats = SessionStats & {
  subagents?: { sessions: number; cost: number; total_with_subagents: number };
};

function statsOfLog(path: string): LogStats {
  const shown = readShown(path);
  const lineBytes = lineLengths(path, shown.events.length);
  const stats = sessionStats({
    events: shown.events,
    lineBytes,
    terminalBytes: Buffer.byteLength(showText(shown)),
    canonicalBytes: shown.summary.bytes,
  });
  const children = childrenCost(path, shown.events);
  if (!children) return stats;
  const total = (stats.cost.total ?? 0) + children.cost;
  return { ...stats, subagents: { ...children, total_with_subagents: total } };
}

/** The byte length of each of the first `count` lines (newline included), read in 1 MiB parts. */
function lineLengths(path: string, count: number): number[] {
  const lengths: number[] = [];
  const buffer = Buffer.alloc(1 << 20);
  const fd = openSync(path, "r");
  let current = 0;
  try {
    for (
      let read = readSync(fd, buffer);
      read > 0 && lengths.length < count;
      read = readSync(fd, buffer)
    ) {
      let from = 0;
      for (let at = buffer.indexOf(10, 0); at >= 0 && at < read; at = buffer.indexOf(10, at + 1)) {
        lengths.push(current + at + 1 - from);
        current = 0;
        from = at + 1;
        if (lengths.length === count) break;
      }
      current += read - from;
    }
  } finally {
    closeSync(fd);
  }
  return lengths;
}

function renderStats(stats: LogStats): string[] {
  const { views, storage, replay, cache, cost } = stats;
  const lines = [
    `session ${stats.session_id}`,
    "",
    "bytes per view",
    `  terminal (sessions show)   ${formatCount(views.terminal_bytes)}`,
    `  export (canonical log)     ${formatCount(views.canonical_bytes)}`,
    "",
    `storage by event type (${formatCount(storage.bytes)} bytes)`,
    ...table(
      ["TYPE", "EVENTS", "BYTES", "SHARE"],
      storage.by_type.map((row) => [
        row.type,
        formatCount(row.events),
        formatCount(row.bytes),
        percent(storage.bytes === 0 ? null : row.bytes / storage.bytes),
      ]),
    ),
    "",
    "replay tokens at the last request",
  ];
  if (replay.step === null) lines.push("  no completed request");
  else {
    lines.push(
      `  request            turn ${replay.step.turn} step ${replay.step.step}, ${plural(replay.messages, "message")} of history`,
      `  history (counted)  ${formatCount(replay.history_tokens)} tokens (${replay.tokenizer}; the system prompt and tool schemas are not in the log)`,
      `  provider reported  ${formatCount(replay.provider_input_tokens ?? 0)} input tokens (uncached + cache read + cache write)`,
    );
  }
  if (stats.compactions.length > 0) {
    lines.push(
      "",
      "compactions (estimated tokens of the history before and after)",
      ...table(
        ["SEQ", "TURN", "TRIGGER", "BEFORE", "AFTER", "COST"],
        stats.compactions.map((c) => [
          String(c.seq),
          c.turn === null ? "-" : String(c.turn),
          c.trigger,
          formatCount(c.tokens_before),
          formatCount(c.tokens_after),
          formatCostDetail(c.cost),
        ]),
      ),
    );
  }
  const { web } = stats;
  if (web.fetches + web.refused > 0) {
    lines.push(
      "",
      "web fetches (web_fetch)",
      `  fetched  ${formatCount(web.fetches)} (${formatCount(web.failed)} failed)`,
      `  refused  ${formatCount(web.refused)} (by the permission policy)`,
    );
  }
  const searches = web.searches;
  if (searches.provider + searches.backend + searches.refused > 0) {
    lines.push(
      "",
      "web searches (web_search)",
      `  searched  ${formatCount(searches.provider + searches.backend)} (${formatCount(searches.provider)} by the provider's tool, ${formatCount(searches.backend)} by the backend)`,
      `  refused   ${formatCount(searches.refused)} (by the permission policy)`,
    );
  }
  lines.push(
    "",
    "provider cache per request",
    ...table(
      ["TURN", "STEP", "UNCACHED", "CACHE READ", "CACHE WRITE", "HIT"],
      [
        ...cache.steps.map((s) => [String(s.turn), String(s.step), ...cacheCells(s)]),
        ["all", "", ...cacheCells(cache.total)],
      ],
    ),
    "",
    "cost",
    ...table(
      ["TURN", "REQUESTS", "COST"],
      [
        ...cost.turns.map((t) => [String(t.turn), String(t.steps), formatCostDetail(t.cost)]),
        [
          "all",
          String(cache.steps.length),
          `${formatCostDetail(cost.total)} (${formatCost(cost.total)})`,
        ],
      ],
    ),
  );
  const { subagents } = stats;
  if (subagents) {
    const count = plural(subagents.sessions, "subagent session");
    lines.push(
      `  ${count}: ${formatCostDetail(subagents.cost)}; with them ${formatCostDetail(subagents.total_with_subagents)} (${formatCost(subagents.total_with_subagents)})`,
    );
  }
  return lines;
}

function cacheCells(figures: CacheFigures): string[] {
  return [
    formatCount(figures.uncached),
    formatCount(figures.cache_read),
    formatCount(figures.cache_write),
    percent(figures.hit_ratio),
  ];
}

function percent(ratio: number | null): string {
  return ratio === null ? "-" : `${(ratio * 100).toFixed(1)} %`;
}

/** Rows under a header, two spaces apart, indented; the first column left, the rest right. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((head, i) =>
    Math.max(head.length, ...rows.map((row) => row[i]?.length ?? 0)),
  );
  const line = (row: string[]) =>
    `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ")}`.trimEnd();
  return [line(header), ...rows.map(line)];
}
