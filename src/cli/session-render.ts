// Renders a session's events as readable lines for `codewhale sessions show` and `list`: one
// line per event, with the streamed chunks of each block folded into a single line, and every
// control character from the log shown as a visible escape so it cannot drive the terminal.

import { escapeControls } from "../runner/index.ts";
import type { EventOf, SessionEvent } from "../session/events.ts";
import type { SessionSummary } from "../session/summary.ts";

const MAX_TEXT = 200;
export function renderSummaryHeader(summary: SessionSummary): string[] {
  const lines = [
    `session ${summary.id}`,
    `  path     ${summary.path}`,
    `  started  ${summary.started ?? "unknown"}`,
    `  cwd      ${summary.cwd ?? "unknown"}`,
    `  model    ${summary.model ?? "unknown"}`,
    `  events   ${summary.events} (${summary.bytes} bytes)`,
  ];
  return lines.map(escapeControls);
}

/** One line per event; consecutive chunks of one block become one line. */
export function renderEventLines(events: Iterable<SessionEvent>): string[] {
  const lines: string[] = [];
  let chunkKey = "";
  for (const event of events) {
    if (event.type === "assistant/chunk") {
      const key = `${event.turn}/${event.step}/${event.block}`;
      if (key === chunkKey) {
        lines[lines.length - 1] = appendText(lines[lines.length - 1]!, event.delta);
        continue;
      }
      chunkKey = key;
      lines.push(`#${event.seq} ${event.kind}: ${oneLine(event.delta)}`);
      continue;
    }
    chunkKey = "";
    lines.push(`#${event.seq} ${event.type}${describe(event)}`);
  }
  return lines.map(escapeControls);
}

function describe(event: SessionEvent): string {
  switch (event.type) {
    case "session/start":
      return ` ${event.provider}/${event.model} in ${event.cwd}`;
    case "user/message":
      return `: ${oneLine(event.text)}${event.blocked ? ` (blocked by ${event.blocked.by}: ${oneLine(event.blocked.reason)})` : ""}`;
    case "steering/message":
      return `: ${oneLine(event.text)}`;
    case "context/note":
      return ` ${event.source}${event.call_id ? ` (${event.call_id})` : ""}: ${oneLine(event.text)}`;
    case "turn/start":
      return ` ${event.turn}`;
    case "turn/end":
      return ` ${event.turn} (${event.reason}${event.error ? `: ${event.error}` : ""})`;
    case "tool/call":
      return ` ${event.name} ${oneLine(JSON.stringify(event.arguments))} [${event.decision.outcome} by ${event.decision.by}]${rewritten(event)}`;
    case "tool/result":
      return ` ${event.call_id}${event.is_error ? " error" : ""}: ${oneLine(event.content)}`;
    case "step/end":
      return ` in ${event.usage.input} out ${event.usage.output}${event.cost === null ? "" : ` $${event.cost.toFixed(4)}`}`;
    case "step/failed":
      return `: ${oneLine(event.error)}`;
    case "session/model":
      return ` now ${event.provider}/${event.model}`;
    case "tools/changed":
      return ` from turn ${event.turn}: ${toolChanges(event)}`;
    case "session/recovered":
      return event.kept_in === undefined
        ? `: cut ${event.dropped_bytes} torn bytes`
        : `: cut ${event.dropped_bytes} bytes of a damaged tail, kept in ${event.kept_in}`;
    case "session/checkpoint":
      return ` signs seq ${event.signed_seq} (key ${event.key})`;
    default:
      return "";
  }
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
