// The expanded tool card (Ctrl-O): the full effective arguments, the model's own when a hook or
// plugin rewrote them, the whole result as the model received it (after the output policy: the
// truncation marker and `[REDACTED:kind]` placeholders are in it), how many secrets it had
// redacted, and the whole diff. Everything is shown through `safe`, wrapped to the width.
// Called by tool-card.ts.
import { wrapTextWithAnsi } from "@mariozechner/pi-tui";
import { terminalSafe as safe } from "../runner/index.ts";
import type { EventOf, JsonValue } from "../session/events.ts";
import { diffLines } from "./diff-lines.ts";
import type { Theme } from "./theme.ts";
import type { CardResult } from "./tool-card.ts";

export interface CardState {
  call: EventOf<"tool/call">;
  result: CardResult | undefined;
  tail: string[];
}

const MARKER = /\[REDACTED:([a-z0-9_]+)\]/g;

/** "2 secrets redacted (github_token, private_key)" from the placeholders in `content`. */
export function redactionNote(content: string): string | undefined {
  const kinds = new Map<string, number>();
  for (const match of content.matchAll(MARKER)) {
    const kind = match[1] ?? "";
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  if (kinds.size === 0) return undefined;
  const total = [...kinds.values()].reduce((sum, n) => sum + n, 0);
  const list = [...kinds].map(([kind, n]) => (n === 1 ? kind : `${kind} ×${n}`)).join(", ");
  return `${total} secret${total === 1 ? "" : "s"} redacted (${list})`;
}

export function compactJson(value: unknown): string {
  const text = safe(JSON.stringify(value) ?? "null");
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

export function cardDetail(state: CardState, theme: Theme, width: number): string[] {
  const { call, result } = state;
  const out: string[] = [];
  const inner = Math.max(1, width - 4);
  const block = (text: string, style: (line: string) => string = (line) => line) => {
    for (const line of text.split("\n")) {
      for (const row of wrapTextWithAnsi(style(safe(line)), inner)) out.push(`    ${row}`);
    }
  };
  const heading = (text: string) => out.push(`  ${theme.dim(text)}`);
  heading(call.original_arguments === undefined ? "arguments" : "arguments (as run)");
  block(pretty(call.arguments));
  if (call.original_arguments !== undefined) {
    const why = call.rewrite_reason ? `: ${call.rewrite_reason}` : "";
    heading(`↻ rewritten by ${safe(call.rewritten_by ?? "a hook")}${safe(why)}; the model asked`);
    block(pretty(call.original_arguments), theme.dim);
  }
  if (call.decision.outcome === "deny") {
    const reason = call.decision.reason ? `: ${call.decision.reason}` : "";
    heading(`denied by ${safe(call.decision.by)}`);
    block(`not run${reason}`, theme.bad);
  }
  if (!result) {
    if (state.tail.length > 0) {
      heading("output so far");
      block(state.tail.join("\n"), theme.dim);
    }
  } else {
    const { event, presentation } = result;
    heading(`result as the model received it${event.is_error ? " (an error)" : ""}`);
    block(event.content === "" ? "(empty)" : event.content.replace(/\n$/, ""));
    const facts = [
      `${event.original_bytes} bytes from the tool, ${event.delivered_bytes} to the model`,
    ];
    if (event.truncated) facts.push("truncated (the marker above says what was left out)");
    const redacted = redactionNote(event.content);
    if (redacted) facts.push(redacted);
    for (const error of event.policy_errors) facts.push(`output policy: ${error}`);
    if (event.interrupted) facts.push("interrupted");
    for (const fact of facts) out.push(`  ${theme.dim(safe(fact))}`);
    if (presentation.diff && !event.is_error) {
      heading("diff");
      for (const line of diffLines(presentation.diff, theme, Number.POSITIVE_INFINITY)) {
        for (const row of wrapTextWithAnsi(line, inner)) out.push(`    ${row}`);
      }
    }
  }
  out.push(`  ${theme.dim("Ctrl-O collapses")}`);
  return out;
}

/**
 * Arguments as `key: value` lines, a string value as its own text (a command, a file's new
 * content: its lines indented under the key), anything else as JSON; a non-object as JSON.
 */
function pretty(value: JsonValue | undefined): string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return JSON.stringify(value ?? null, null, 2) ?? "null";
  }
  const lines: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    if (typeof field !== "string") {
      lines.push(`${key}: ${JSON.stringify(field, null, 2) ?? "null"}`);
    } else if (!field.includes("\n")) {
      lines.push(`${key}: ${field}`);
    } else {
      lines.push(`${key}:`);
      for (const line of field.split("\n")) lines.push(`  ${line}`);
    }
  }
  return lines.length === 0 ? "{}" : lines.join("\n");
}
