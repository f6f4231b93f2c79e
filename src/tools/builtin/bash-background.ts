// `bash_output` and `bash_kill`: read what a background process printed since the last read and
// stop it. Ids come from `bash` with `background: true`. The log already holds stripped and
// redacted text; a read keeps at most the bash policy's budget (head and tail of the new text).
import type { RunResult } from "../../runner/index.ts";
import { defineTool } from "../define-tool.ts";
import type { AnyPresentedTool } from "../presentation.ts";
import { zodInput } from "../tool-input.ts";
import type { BackgroundManager } from "./background-manager.ts";
import { bashKillDescription, bashOutputDescription } from "./bash.description.ts";
import { backgroundIdSchema, bashKillPresenter, bashOutputPresenter } from "./bash.presenter.ts";
import type { BuiltinToolContext } from "./context.ts";
import { toToolResult } from "./policed.ts";

export function createBashOutputTool(context: BuiltinToolContext): AnyPresentedTool {
  return defineTool(
    {
      name: "bash_output",
      description: bashOutputDescription,
      input: zodInput(backgroundIdSchema),
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
    bashOutputPresenter,
  );
}

export function createBashKillTool(context: BuiltinToolContext): AnyPresentedTool {
  return defineTool(
    {
      name: "bash_kill",
      description: bashKillDescription,
      input: zodInput(backgroundIdSchema),
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
    bashKillPresenter,
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
