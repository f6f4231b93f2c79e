// The whole call a permission prompt asks about, nothing left out (the prompt scrolls it): a
// command's every line, any tool's every argument (present/call-text.ts), and for an edit what
// it will write (a `write`'s content, an `edit`'s change as a coloured diff) with its other
// arguments. A protected file (the ask's `protectedFile`: .git/config, hooks, .codewhale/…) is
// named as such. Every piece of text goes through `safe`. Called by ask-panel.ts.
import type { AgentAsk } from "../agent/index.ts";
import { callText } from "../present/call-text.ts";
import { terminalSafe as safe } from "../runner/index.ts";
import { diffLines } from "./diff-lines.ts";
import type { Theme } from "./theme.ts";

/** What the prompt shows of the call, every line of it. */
export function callPreview(ask: AgentAsk, theme: Theme): string[] {
  if (ask.tool.kind === "edit" || ask.protectedFile) return writePreview(ask, theme);
  const { command, rest } = callText(ask.arguments);
  const lines = command ? command.map((line) => `${theme.dim("│")} ${line}`) : [];
  return [...lines, ...rest.map((line) => theme.dim(line))];
}

/** What an edit will write, whole, and its other arguments. */
function writePreview(ask: AgentAsk, theme: Theme): string[] {
  const args = isRecord(ask.arguments) ? ask.arguments : {};
  const path = typeof args.path === "string" ? safe(args.path) : "";
  const heading = ask.protectedFile
    ? theme.warn(`protected file${path ? ` ${path}` : ""}: all it will write is shown`)
    : theme.dim(`it will write${path ? ` ${path}` : ""}:`);
  const { path: _, old_string, new_string, content, ...others } = args;
  let body: string[];
  let shown: Record<string, unknown> = others;
  if (typeof old_string === "string" && typeof new_string === "string") {
    body = diffLines({ path, oldText: old_string, newText: new_string }, theme, Infinity);
  } else if (typeof content === "string") {
    body = content.replace(/\n$/, "").split("\n").map(safe);
    shown = { ...others, ...(old_string === undefined ? {} : { old_string }) };
  } else {
    body = callText(ask.arguments).rest;
    shown = {};
  }
  const rest = Object.keys(shown).length > 0 ? callText(shown).rest.map((l) => theme.dim(l)) : [];
  return [heading, ...body.map((line) => `  ${line}`), ...rest];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
