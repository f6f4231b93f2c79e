// How `bash`, `bash_output` and `bash_kill` calls are shown, from the recorded arguments and
// result alone (no background manager): their schemas (bash.ts, bash-background.ts validate
// with them) and static presenters, and the "exit code 0 · 12 lines" summary command tools share
// (a failed command: "exit code 1: <its last output line>").
import * as z from "zod";
import {
  commandTitle,
  definePresenter,
  firstLine,
  type PresentableResult,
} from "../presentation.ts";

/** bash's arguments; the tool caps `timeout_ms` at the config's maximum, a stored log cannot. */
export function bashSchema(maxTimeoutMs?: number) {
  const timeout = z.number().int().positive();
  return z.object({
    command: z.string().min(1),
    timeout_ms: (maxTimeoutMs === undefined ? timeout : timeout.max(maxTimeoutMs)).optional(),
    background: z.boolean().optional(),
  });
}

export const bashPresenter = definePresenter("bash", bashSchema(), {
  kind: "execute",
  call: (args) => ({
    title: args.background
      ? `${commandTitle(args.command, 80)} (background)`
      : commandTitle(args.command, 80),
    locations: [],
  }),
  result: (_args, result) => ({ summary: commandSummary(result) }),
  failure: (_args, result) => ({ summary: failedCommandSummary(result) }),
});

/** bash_output's and bash_kill's arguments: a background process id. */
export const backgroundIdSchema = z.object({ id: z.string() });

export const bashOutputPresenter = definePresenter("bash_output", backgroundIdSchema, {
  kind: "execute",
  call: (args) => ({ title: `output of ${args.id}`, locations: [] }),
  result: (_args, result) => ({ summary: lastLine(result.content) }),
});

export const bashKillPresenter = definePresenter("bash_kill", backgroundIdSchema, {
  kind: "execute",
  call: (args) => ({ title: `stop ${args.id}`, locations: [] }),
  result: (_args, result) => ({ summary: firstLine(result.content) }),
});

/** "exit code 0 · 12 lines", from the recorded content alone (bash and command tools). */
export function commandSummary(result: PresentableResult): string {
  const lines = outputOf(result.content).trimEnd().split("\n");
  const status = lines[lines.length - 1] ?? "";
  const match = /^\[(.*)\]$/.exec(status);
  if (!match) return firstLine(result.content);
  const outputLines = lines.length - 1 - (lines[lines.length - 2] === "(no output)" ? 1 : 0);
  return `${match[1]} · ${outputLines} line${outputLines === 1 ? "" : "s"}`;
}

/**
 * A failed command: how it ended and its last line of output, which is where errors land
 * ("exit code 1: Error: Cannot find module 'x'"); without a status line, the default summary.
 */
export function failedCommandSummary(result: PresentableResult): string {
  const lines = outputOf(result.content).trimEnd().split("\n");
  const match = /^\[(.*)\]$/.exec(lines[lines.length - 1] ?? "");
  if (!match) return `Error: ${firstLine(result.content)}`;
  const output = lines.slice(0, -1).filter((line) => line.trim() !== "" && line !== "(no output)");
  const last = output[output.length - 1];
  return last === undefined ? String(match[1]) : `${match[1]}: ${firstLine(last.trim())}`;
}

/** The note a rewritten call's result starts with (agent/rewrite-note.ts): two lines, a blank. */
const REWRITE_NOTE =
  /^\[codewhale\] This \S+ call was rewritten by [^\n]*\nIt ran with: [^\n]*\n\n/;

/** The command's own output: the content without a rewrite note in front. */
function outputOf(content: string): string {
  return content.replace(REWRITE_NOTE, "");
}

function lastLine(text: string): string {
  const lines = text.trimEnd().split("\n");
  return firstLine(lines[lines.length - 1] ?? "");
}
