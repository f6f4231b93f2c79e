// `bash_output` and `bash_kill`: read what a background process printed since the last read and
// stop it. Ids come from `bash` with `background: true`. The log already holds stripped and
// redacted text; a read keeps at most the bash policy's budget (head and tail of the new text).
import { z } from "zod";
import type { RunResult } from "../../runner/index.ts";
import type { AnyPresentedTool } from "../presentation.ts";
import { definePresentedTool, firstLine } from "../presentation.ts";
import type { BackgroundManager } from "./background-manager.ts";
import { bashKillDescription, bashOutputDescription } from "./bash.description.ts";
import type { BuiltinToolContext } from "./context.ts";
import { toToolResult } from "./policed.ts";

const schema = z.object({ id: z.string() });

export function createBashOutputTool(context: BuiltinToolContext): AnyPresentedTool {
  return definePresentedTool(
    {
      name: "bash_output",
      description: bashOutputDescription,
      schema,
      readOnly: true,
      async execute(args) {
        const read = await context.background.read(args.id, context.policy("bash").maxBytes);
        if (!read) return unknownId(context.background, args.id);
        const status = read.result
          ? `[exited: ${exitText(read.result)}]`
          : `[${args.id} still running]`;
        const { window } = read;
        const empty = window.newBytes === 0 ? "(no new output)\n" : "";
        const policed = {
          output: window.output,
          originalBytes: window.newBytes,
          truncated: window.truncated,
          spillPath: window.truncated ? window.path : null,
          policyErrors: read.result?.policyErrors ?? [],
        };
        return toToolResult(policed, { trailer: `${empty}${status}` });
      },
    },
    {
      kind: "execute",
      call: (args) => ({ title: `output of ${args.id}`, locations: [] }),
      result: (_args, result) => ({ summary: lastLine(result.content) }),
    },
  );
}

export function createBashKillTool(context: BuiltinToolContext): AnyPresentedTool {
  return definePresentedTool(
    {
      name: "bash_kill",
      description: bashKillDescription,
      schema,
      readOnly: false,
      async execute(args) {
        const job = context.background.get(args.id);
        if (!job) return unknownId(context.background, args.id);
        const wasRunning = job.process.result === null;
        const result = await context.background.kill(args.id);
        const how = result ? exitText(result) : "gone";
        return {
          content: wasRunning
            ? `Stopped ${args.id} (${how}).`
            : `${args.id} had already exited (${how}).`,
        };
      },
    },
    {
      kind: "execute",
      call: (args) => ({ title: `stop ${args.id}`, locations: [] }),
      result: (_args, result) => ({ summary: firstLine(result.content) }),
    },
  );
}

function unknownId(background: BackgroundManager, id: string) {
  const known = background.list().map((job) => job.id);
  const offer =
    known.length > 0 ? `known ids: ${known.join(", ")}` : "no background processes were started";
  return { content: `No background process "${id}" (${offer}).`, isError: true };
}

function exitText(result: RunResult): string {
  if (result.exitCode !== null) return `exit code ${result.exitCode}`;
  return `killed by ${result.signal ?? "a signal"}`;
}

function lastLine(text: string): string {
  const lines = text.trimEnd().split("\n");
  return firstLine(lines[lines.length - 1] ?? "");
}
