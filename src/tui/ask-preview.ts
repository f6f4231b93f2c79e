// What an asked edit will write, for the permission prompt: a `write`'s content, an `edit`'s
// change as a coloured diff, another edit tool's arguments. A protected file (the ask's
// `protectedFile`: .git/config, hooks, .codewhale/…) is always shown whole; other edits are
// cut after a screenful, with a count of what is left out. File text goes through `safe`.
// Called by ask-panel.ts.
import type { AgentAsk } from "../agent/pending-asks.ts";
import { diffLines } from "./diff-lines.ts";
import { safe } from "./safe-text.ts";
import type { Theme } from "./theme.ts";

/** Lines shown of what an unprotected edit writes. */
export const PREVIEW_LINES = 20;

export function writePreview(ask: AgentAsk, theme: Theme): string[] {
  if (ask.tool.kind !== "edit" && !ask.protectedFile) return [];
  const max = ask.protectedFile ? Number.POSITIVE_INFINITY : PREVIEW_LINES;
  const args = isRecord(ask.arguments) ? ask.arguments : {};
  const path = typeof args.path === "string" ? safe(args.path) : "";
  const heading = ask.protectedFile
    ? theme.warn(`protected file${path ? ` ${path}` : ""}: all it will write is shown`)
    : theme.dim(`it will write${path ? ` ${path}` : ""}:`);
  let body: string[];
  if (typeof args.old_string === "string" && typeof args.new_string === "string") {
    const diff = { path, oldText: args.old_string, newText: args.new_string };
    body = diffLines(diff, theme, max);
  } else if (typeof args.content === "string") {
    body = cut(args.content.replace(/\n$/, "").split("\n").map(safe), max, theme);
  } else {
    body = cut((JSON.stringify(ask.arguments, null, 2) ?? "").split("\n").map(safe), max, theme);
  }
  return [heading, ...body.map((line) => `  ${line}`)];
}

function cut(lines: string[], max: number, theme: Theme): string[] {
  if (lines.length <= max) return lines;
  const left = lines.length - max;
  return [...lines.slice(0, max), theme.dim(`… ${left} more line${left === 1 ? "" : "s"}`)];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
