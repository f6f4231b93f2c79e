// Tools for loop tests only (never shipped): `echo` returns its text, `sleep` waits until its
// time is up or the call is cancelled, and a `bash` and a `write` that run nothing but record
// what they were asked to do. Registered in-process, or by exec-tools-cli.ts for exec tests.
import { appendFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { z } from "zod";
import { defineTool } from "../../src/tools/define-tool.ts";
import { staticToolSource, type ToolSource } from "../../src/tools/source.ts";
import { zodInput } from "../../src/tools/tool-input.ts";

export const echoTool = defineTool({
  name: "echo",
  description: "Returns its text.",
  input: zodInput(z.object({ text: z.string(), times: z.number().int().positive().optional() })),
  kind: "other",
  readOnly: true,
  execute: async (args) => ({ content: args.text.repeat(args.times ?? 1) }),
});

/** Resolves after `ms`, or early (as an error) when the call is cancelled. */
export const sleepTool = defineTool({
  name: "sleep",
  description: "Waits ms milliseconds.",
  input: zodInput(z.object({ ms: z.number().int().nonnegative() })),
  kind: "other",
  readOnly: true,
  execute: async (args, ctx) => {
    try {
      await delay(args.ms, undefined, { signal: ctx.signal });
      return { content: `slept ${args.ms} ms` };
    } catch {
      return { content: "sleep aborted", isError: true };
    }
  },
});

/** What the recording tools were called with, in order. */
export interface ToolRecord {
  tool: string;
  args: unknown;
}

/**
 * A `bash`-named tool that runs nothing: it records the command it received (in `ran`, and as
 * one JSON line per call in `logFile` when given) and answers `ran: <command>`.
 */
export function recordingBashTool(ran: ToolRecord[] = [], logFile?: string) {
  return defineTool({
    name: "bash",
    description: "Runs a shell command (test double: records it).",
    input: zodInput(
      z.object({ command: z.string().min(1), timeout_ms: z.number().int().optional() }),
    ),
    kind: "execute",
    readOnly: false,
    execute: async (args) => {
      record(ran, logFile, { tool: "bash", args });
      return { content: `ran: ${args.command}` };
    },
  });
}

/** A `write`-named tool that writes nothing; it records the call like the bash above. */
export function recordingWriteTool(ran: ToolRecord[] = [], logFile?: string) {
  return defineTool({
    name: "write",
    description: "Writes a file (test double: records it).",
    input: zodInput(z.object({ path: z.string().min(1), content: z.string() })),
    kind: "edit",
    readOnly: false,
    execute: async (args) => {
      record(ran, logFile, { tool: "write", args });
      return { content: `wrote ${args.content.length} characters to ${args.path}` };
    },
  });
}

function record(ran: ToolRecord[], logFile: string | undefined, entry: ToolRecord): void {
  ran.push(entry);
  if (logFile) appendFileSync(logFile, `${JSON.stringify(entry)}\n`);
}

/** echo and sleep as the one tool source of a test session. */
export function testTools(): ToolSource[] {
  return [staticToolSource("test", [echoTool, sleepTool])];
}
