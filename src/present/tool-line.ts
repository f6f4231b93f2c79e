// One line for a person about a tool call, a result, a refused call or a retried request, made
// from the session events and their static presentations (tool-presentations.ts) alone. Used
// by exec's text output on stderr (text-output.ts); the terminal UI and ACP can reuse it. Every
// piece of text that came from the model or a tool is made safe for a terminal (`terminalSafe`).
import { diffLines } from "diff";
import { terminalSafe } from "../runner/escape-controls.ts";
import type { EventOf } from "../session/events.ts";
import type { CallPresentation, FileDiff, ResultPresentation } from "../tools/presentation.ts";
import { callOneLine } from "./call-text.ts";
import { formatDuration } from "./format.ts";

export { terminalSafe };

/** Whether lines carry ANSI colour: only on a terminal, never with NO_COLOR set. */
export interface LineStyle {
  color: boolean;
}

const CODES = { dim: "2", red: "31", green: "32", yellow: "33" } as const;

export function paint(style: LineStyle, colour: keyof typeof CODES, text: string): string {
  return style.color ? `\x1b[${CODES[colour]}m${text}\x1b[0m` : text;
}

/** One line of at most `max` characters: newlines and tabs become spaces. */
export function oneLine(text: string, max = 160): string {
  const flat = terminalSafe(text)
    .replace(/\s*\n\s*/g, " ")
    .replace(/\t/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `bash echo hi`, `write notes.txt`: the title, prefixed by the tool's name when it lacks it. */
export function callLabel(name: string, call: CallPresentation): string {
  const title = oneLine(call.title, 100);
  return title === name || title.startsWith(`${name} `) ? title : `${oneLine(name, 40)} ${title}`;
}

/** `→ bash timeout 60 echo hi (rewritten by hook:PreToolUse)`, as the call starts. */
export function toolStartLine(
  call: EventOf<"tool/call">,
  presentation: CallPresentation,
  style: LineStyle,
): string {
  const rewritten =
    call.original_arguments === undefined
      ? ""
      : paint(style, "yellow", ` (rewritten by ${oneLine(call.rewritten_by ?? "a hook", 60)})`);
  return `${paint(style, "dim", "→")} ${callLabel(call.name, presentation)}${rewritten}`;
}

/**
 * `✓ write notes.txt · wrote 2 lines · +2 -0 · 12 ms`, as the result arrives; `ranMs` is how
 * long it ran (calls are all recorded before the first runs: see text-output.ts).
 */
export function toolEndLine(
  call: EventOf<"tool/call">,
  result: EventOf<"tool/result">,
  presentations: { call: CallPresentation; result: ResultPresentation },
  ranMs: number | null,
  style: LineStyle,
): string {
  const mark = result.is_error ? paint(style, "red", "✗") : paint(style, "green", "✓");
  const parts = [callLabel(call.name, presentations.call)];
  const summary = oneLine(presentations.result.summary);
  if (summary !== "") parts.push(summary);
  const diff = presentations.result.diff;
  if (diff && !result.is_error) parts.push(diffStat(diff));
  if (result.interrupted) parts.push("interrupted");
  if (ranMs !== null && Number.isFinite(ranMs) && ranMs >= 0) parts.push(formatDuration(ranMs));
  return `${mark} ${parts.join(" · ")}`;
}

/** Lines added and removed by a change, `+3 -1`, counted by jsdiff's line diff. */
export function diffStat(diff: FileDiff): string {
  let added = 0;
  let removed = 0;
  for (const part of diffLines(diff.oldText ?? "", diff.newText)) {
    if (part.added) added += part.count;
    else if (part.removed) removed += part.count;
  }
  return `+${added} -${removed}`;
}

/**
 * A refused call, whole on one line (its name and arguments as JSON, escapes visible:
 * present/call-text.ts), naming what would allow it: `refused: write {"path":"notes.txt",…}
 * (allow it with --allow 'write(./notes.txt)')`, or the refusal's reason when no rule would.
 */
export function refusalLine(
  call: EventOf<"tool/call">,
  allowRule: string | null,
  style: LineStyle,
): string {
  const label = callOneLine(call.name, call.arguments);
  const how =
    allowRule === null
      ? oneLine(call.decision.reason ?? `refused by ${call.decision.by}`, 240)
      : `allow it with --allow ${shellQuote(oneLine(allowRule, 200))}`;
  return `${paint(style, "yellow", "refused:")} ${label} (${how})`;
}

/** `retrying in 2 s (attempt 2 of 6): HTTP 429`, for a failed request that will be retried. */
export function retryLine(failed: EventOf<"step/failed">, style: LineStyle): string {
  const why = failed.status ? `HTTP ${failed.status}` : oneLine(failed.error, 120);
  const retry = failed.retry;
  const when = retry
    ? ` in ${formatDuration(retry.delay_ms)} (attempt ${retry.next_attempt} of ${retry.max_attempts})`
    : "";
  return `${paint(style, "yellow", "retrying")}${when}: ${why}`;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
