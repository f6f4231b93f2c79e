// Renders a session for `codewhale sessions show`: a header (ids, where, model, the figures:
// turns, tokens, cost, duration, and how far the log verifies), then one line per event, with
// the streamed chunks of each block folded into a single line and tool calls and results as
// their presenters show them; every control character from the log is shown as a visible
// escape so it cannot drive the terminal.

import { checkpointLine, rewindLine } from "../present/checkpoint-line.ts";
import {
  formatCost,
  formatCostDetail,
  formatCount,
  formatDuration,
  plural,
} from "../present/format.ts";
import { planDecisionLine } from "../present/plan-line.ts";
import { connectionNote, sandboxNote } from "../present/sandbox-note.ts";
import { ToolPresentations } from "../present/tool-presentations.ts";
import { webSearchView } from "../present/web-search-lines.ts";
import { terminalSafe } from "../runner/index.ts";
import type { EventOf, SessionEvent } from "../session/events.ts";
import type { Figures } from "../session/figures.ts";
import type { SessionSummary } from "../session/summary.ts";

const MAX_TEXT = 200;

export interface HeaderFacts {
  summary: SessionSummary;
  figures: Figures;
  /** One line on how far the log verifies (chain, signature), from `sessions show`. */
  verified: string;
}

export function renderSummaryHeader({ summary, figures, verified }: HeaderFacts): string[] {
  const lines = [
    `session ${summary.id} (${summary.shortId})`,
    `  path      ${summary.path}`,
    `  started   ${summary.started ?? "unknown"}`,
    `  cwd       ${summary.cwd ?? "unknown"}`,
    `  model     ${summary.model ?? "unknown"}`,
    `  events    ${summary.events} (${summary.bytes} bytes)`,
    `  turns     ${turnsLine(figures)}`,
    `  tokens    ${tokensLine(figures)}`,
    `  cost      ${costLine(figures.cost)}`,
    `  duration  ${formatDuration(figures.turn_ms)} in turns, ${formatDuration(figures.request_ms)} waiting for the model`,
    `  verified  ${verified}`,
  ];
  return lines.map(terminalSafe);
}

function turnsLine(figures: Figures): string {
  const failed = figures.failed_steps > 0 ? ` (+${figures.failed_steps} failed)` : "";
  return `${figures.turns}, ${plural(figures.steps, "model request")}${failed}, ${plural(figures.tool_calls, "tool call")}`;
}

function tokensLine({ usage }: Figures): string {
  const cached =
    usage.cache_read + usage.cache_write > 0
      ? ` (+${formatCount(usage.cache_read)} cache read, ${formatCount(usage.cache_write)} cache write)`
      : "";
  return `${formatCount(usage.input)} in${cached}, ${formatCount(usage.output)} out`;
}

/** To the cent, with the four-decimal figure beside a cost under a dollar. */
function costLine(cost: number | null): string {
  if (cost === null || cost === 0 || cost >= 1) return formatCost(cost);
  return `${formatCost(cost)} (${formatCostDetail(cost)})`;
}

/** One line per event; consecutive chunks of one block become one line. */
export function renderEventLines(events: Iterable<SessionEvent>): string[] {
  const lines: string[] = [];
  const presentations = new ToolPresentations();
  let chunkKey = "";
  for (const event of events) {
    if (event.type === "assistant/chunk" || event.type === "compaction/chunk") {
      const key =
        event.type === "compaction/chunk"
          ? `compaction/${event.block}`
          : `${event.turn}/${event.step}/${event.block}`;
      if (key === chunkKey) {
        lines[lines.length - 1] = appendText(lines[lines.length - 1]!, event.delta);
        continue;
      }
      chunkKey = key;
      const what = event.type === "compaction/chunk" ? `summary ${event.kind}` : event.kind;
      lines.push(`#${event.seq} ${what}: ${oneLine(event.delta)}`);
      continue;
    }
    chunkKey = "";
    const tool = describeTool(event, presentations);
    lines.push(`#${event.seq} ${event.type}${tool ?? describe(event)}`);
  }
  return lines.map(terminalSafe);
}

/** The provider's searches in a message and how many sources its text cites; "" without. */
function webSearchSummary(event: EventOf<"assistant/message">): string {
  const view = webSearchView(event.content);
  if (!view) return "";
  const parts = view.searches.map((search) => search.headline);
  if (view.cited.length > 0) parts.push(`${plural(view.cited.length, "source")} cited`);
  return `: ${oneLine(parts.join("; "))}`;
}

/** ` (+2 images)` after a prompt that carries images (stored beside the log). */
function imagesNote(count: number): string {
  if (count === 0) return "";
  return ` (+${count} ${count === 1 ? "image" : "images"})`;
}

function describe(event: SessionEvent): string {
  switch (event.type) {
    case "session/start":
      return ` ${event.provider}/${event.model} in ${event.cwd}`;
    case "user/message":
      return `: ${oneLine(event.text)}${imagesNote(event.images?.length ?? 0)}${event.blocked ? ` (blocked by ${event.blocked.by}: ${oneLine(event.blocked.reason)})` : ""}`;
    case "steering/message":
      return `: ${oneLine(event.text)}`;
    case "context/note":
      return ` ${event.source}${event.call_id ? ` (${event.call_id})` : ""}: ${oneLine(event.text)}`;
    case "turn/start":
      return ` ${event.turn}`;
    case "turn/end":
      return ` ${event.turn} (${event.reason}${event.error ? `: ${event.error}` : ""})`;
    case "step/end":
      return ` in ${event.usage.input} out ${event.usage.output}${event.cost === null ? "" : ` ${formatCostDetail(event.cost)}`}`;
    case "step/failed":
    case "compaction/failed":
      return `: ${oneLine(event.error)}`;
    case "compaction/start":
      return ` ${event.trigger} by ${event.provider}/${event.model} (about ${event.tokens_before} tokens)`;
    case "context/compaction":
      return ` ${event.trigger}: about ${event.tokens_before} → ${event.tokens_after} tokens; the summary replaces seq ${event.first_seq}–${event.last_seq}${event.kept_from_seq === undefined ? "" : `, kept verbatim from seq ${event.kept_from_seq}`}: ${oneLine(event.summary)}`;
    case "assistant/message":
      return webSearchSummary(event);
    case "session/model":
      return ` now ${event.provider}/${event.model}`;
    case "session/effort":
      return ` now ${event.effort}`;
    case "session/title":
      return `: ${oneLine(event.title)}`;
    case "plan/proposed":
      return ` (${event.call_id}): ${oneLine(event.plan)}`;
    case "plan/decided":
      return ` (${event.call_id}): ${oneLine(planDecisionLine(event))}`;
    case "tools/changed":
      return ` from turn ${event.turn}: ${toolChanges(event)}`;
    case "session/recovered":
      return event.kept_in === undefined
        ? `: cut ${event.dropped_bytes} torn bytes`
        : `: cut ${event.dropped_bytes} bytes of a damaged tail, kept in ${event.kept_in}`;
    case "session/checkpoint":
      return ` signs seq ${event.signed_seq} (key ${event.key})`;
    case "sandbox/connection":
      return ` ${oneLine(connectionNote(event))}`;
    case "checkpoint/taken":
      return ` ${oneLine(checkpointLine(event))}`;
    case "checkpoint/rewind":
      return ` ${oneLine(rewindLine(event))}`;
    default:
      return "";
  }
}

/**
 * A tool call as its presenter titles it, with its decision and, when rewritten, the original
 * arguments; a result as its presenter summarises it, with the first line of what the model
 * read. Undefined for any other event.
 */
function describeTool(event: SessionEvent, presentations: ToolPresentations): string | undefined {
  const shown = presentations.of(event);
  if (shown === undefined) return undefined;
  if (event.type === "tool/call" && "title" in shown) {
    const title = shown.title.startsWith(event.name)
      ? shown.title
      : `${event.name}: ${shown.title}`;
    const decision = `[${event.decision.outcome} by ${event.decision.by}]`;
    return ` ${oneLine(title)} ${decision}${rewritten(event)}`;
  }
  if (event.type === "tool/result" && "summary" in shown) {
    const truncated = event.truncated
      ? ` (truncated: ${event.delivered_bytes} of ${event.original_bytes} bytes)`
      : "";
    // An error's whole text says why and how to allow it; a summary's first line is too short.
    const summary = event.is_error ? event.content : shown.summary;
    const sandbox = event.sandbox ? ` [${sandboxNote(event.sandbox)}]` : "";
    return ` ${event.call_id}${event.is_error ? " error" : ""}: ${oneLine(summary)}${truncated}${sandbox}`;
  }
  return undefined;
}

/** "+added -removed ~changed", each list comma-separated, or "reordered". */
function toolChanges(event: EventOf<"tools/changed">): string {
  const parts = [
    ...event.added.map((name) => `+${name}`),
    ...event.removed.map((name) => `-${name}`),
    ...event.changed.map((name) => `~${name}`),
  ];
  return oneLine(parts.length > 0 ? parts.join(" ") : "reordered");
}

/** " (rewritten by hook:x from {…})" for a rewritten call; the effective arguments come first. */
function rewritten(event: EventOf<"tool/call">): string {
  if (event.original_arguments === undefined) return "";
  const from = oneLine(JSON.stringify(event.original_arguments));
  return ` (rewritten by ${event.rewritten_by ?? "unknown"} from ${from})`;
}

function appendText(line: string, delta: string): string {
  return line.length >= MAX_TEXT ? line : oneLine(line + delta);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT - 1)}…` : flat;
}
