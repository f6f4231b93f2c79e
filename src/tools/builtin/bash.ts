// The `bash` tool: a command with `bash -c` in the workspace through the shared runner (own
// process group; timeout and cancellation kill the tree; output interleaved and policed), or,
// with `background: true`, a long-running process handed to the background manager.
import { z } from "zod";
import type { RunResult } from "../../runner/index.ts";
import { runCommand } from "../../runner/index.ts";
import type { AnyPresentedTool, PresentableResult } from "../presentation.ts";
import { definePresentedTool, firstLine } from "../presentation.ts";
import { bashDescription } from "./bash.description.ts";
import type { BuiltinToolContext } from "./context.ts";
import { toToolResult } from "./policed.ts";

export function createBashTool(context: BuiltinToolContext): AnyPresentedTool {
  const schema = z.object({
    command: z.string().min(1),
    timeout_ms: z.number().int().positive().max(context.bashTimeout.maxMs).optional(),
    background: z.boolean().optional(),
  });
  return definePresentedTool(
    {
      name: "bash",
      description: bashDescription,
      schema,
      readOnly: false,
      async execute(args, ctx) {
        if (args.background) {
          const job = await context.background.start({
            command: args.command,
            cwd: context.cwd,
            env: context.env,
            policy: context.policy("bash"),
          });
          return {
            content: `Started background process ${job.id}. Read its output with bash_output {"id":"${job.id}"}; stop it with bash_kill.`,
          };
        }
        const timeoutMs = args.timeout_ms ?? context.bashTimeout.defaultMs;
        const run = await runCommand(
          {
            command: args.command,
            cwd: context.cwd,
            env: context.env,
            timeoutMs,
            signal: ctx.signal,
          },
          context.policy("bash"),
          { spill: context.spill },
        );
        return toToolResult(run, { trailer: statusLine(run, timeoutMs), isError: failed(run) });
      },
    },
    {
      kind: "execute",
      call: (args) => ({
        title: args.background
          ? `${firstLine(args.command, 80)} (background)`
          : firstLine(args.command, 80),
        locations: [],
      }),
      result: (_args, result) => ({ summary: commandSummary(result) }),
    },
  );
}

/** The last line of a bash result: how the command ended. */
export function statusLine(run: RunResult, timeoutMs?: number): string {
  const empty = run.originalBytes === 0 ? "(no output)\n" : "";
  if (run.timedOut) {
    return `${empty}[timed out after ${timeoutMs ?? "?"} ms; the process tree was killed]`;
  }
  if (run.cancelled) return `${empty}[cancelled; the process tree was killed]`;
  if (run.exitCode === null) return `${empty}[killed by ${run.signal ?? "a signal"}]`;
  return `${empty}[exit code ${run.exitCode}]`;
}

function failed(run: RunResult): boolean {
  return run.timedOut || run.cancelled || run.exitCode !== 0;
}

/** "exit code 0 · 12 lines", from the recorded content alone (bash and command tools). */
export function commandSummary(result: PresentableResult): string {
  const lines = result.content.trimEnd().split("\n");
  const status = lines[lines.length - 1] ?? "";
  const match = /^\[(.*)\]$/.exec(status);
  if (!match) return firstLine(result.content);
  const outputLines = lines.length - 1 - (lines[lines.length - 2] === "(no output)" ? 1 : 0);
  return `${match[1]} · ${outputLines} line${outputLines === 1 ? "" : "s"}`;
}
