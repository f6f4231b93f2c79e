// The `bash` tool: a command with `bash -c` in the workspace through the shared runner (own
// process group; timeout and cancellation kill the tree; output interleaved and policed), or,
// with `background: true`, a long-running process handed to the background manager. A surface
// that runs commands itself (an ACP editor's terminals) gets the foreground ones (bash-terminal.ts).
// While a command runs here, its processed output tail goes to `ctx.progress` (`tool/progress`).
import type { RunResult, SandboxAftermath } from "../../runner/index.ts";
import { editorTerminalArgv, guardSandboxedCommand, runCommand } from "../../runner/index.ts";
import { commandSandbox } from "../command-sandbox.ts";
import { defineTool } from "../define-tool.ts";
import type { AnyPresentedTool } from "../presentation.ts";
import { zodInput } from "../tool-input.ts";
import { bashDescription } from "./bash.description.ts";
import { bashPresenter, bashSchema } from "./bash.presenter.ts";
import { bashChanges } from "./bash-read-only.ts";
import { runInTerminal, type TerminalOutcome } from "./bash-terminal.ts";
import type { BuiltinToolContext } from "./context.ts";
import { toToolResult } from "./policed.ts";

export function createBashTool(context: BuiltinToolContext): AnyPresentedTool {
  const schema = bashSchema(context.bashTimeout.maxMs);
  return defineTool(
    {
      name: "bash",
      description: bashDescription,
      input: zodInput(schema),
      readOnly: false,
      // A command of programs that only read changes nothing; a background one runs on after.
      changes: (args) => (args.background ? undefined : bashChanges(context, args.command)),
      async execute(args, ctx) {
        // Outside the sandbox only when the user allowed running this call again there.
        const box = commandSandbox(context.sandbox, ctx);
        if (box.refusal) return { content: `Not run: ${box.refusal}.`, isError: true };
        const sandbox = ctx.outsideSandbox ? undefined : context.sandbox;
        const confined = box.spec;
        if (args.background) {
          const job = await context.background.start({
            command: args.command,
            cwd: context.cwd,
            env: context.env,
            policy: context.policy("bash"),
            ...confined,
          });
          return {
            content: `Started background process ${job.id}. Read its output with bash_output {"id":"${job.id}"}; stop it with bash_kill.`,
            ...(sandbox ? { sandbox: sandbox.receipt } : {}),
          };
        }
        const timeoutMs = args.timeout_ms ?? context.bashTimeout.defaultMs;
        // An editor's terminal runs it under the same bwrap policy (the editor starts bwrap);
        // a network allow list needs codewhale's proxy beside the command, so that runs here.
        const spec = sandbox?.runSpec;
        if (context.terminal && !(spec && spec.policy.allow.length > 0)) {
          const shell = ["bash", "-c", args.command];
          // As runCommand does: mount points for the editor's bwrap, and after the command, the
          // nested repositories and run-on-host files it left (renamed aside or put back).
          // The sandbox's refusal of a write or a unix socket is noted, and offered to run again
          // outside (in the editor's terminal, unconfined), as for a command run here.
          const guard = spec ? guardSandboxedCommand(spec.policy) : null;
          const argv = spec ? editorTerminalArgv(spec, shell, context.cwd, guard?.held) : shell;
          let outcome: (TerminalOutcome & SandboxAftermath) | null = null;
          const ran = await runInTerminal(
            context,
            context.terminal,
            { argv, timeoutMs },
            ctx,
            (ended) => {
              outcome = { ...ended, ...(guard?.finish() ?? {}) };
              return statusLine(ended, timeoutMs) + box.note(outcome);
            },
          ).finally(() => guard?.release());
          if (outcome) box.mark(ran, outcome);
          else if (sandbox) ran.sandbox = sandbox.receipt;
          return ran;
        }
        const run = await runCommand(
          {
            command: args.command,
            cwd: context.cwd,
            env: context.env,
            timeoutMs,
            signal: ctx.signal,
            ...confined,
          },
          context.policy("bash"),
          {
            spill: context.spill,
            // The running command's last lines, already stripped and redacted, for a live view.
            ...(ctx.progress ? { tail: (tail: string) => ctx.progress?.({ tail }) } : {}),
          },
        );
        const trailer = statusLine(run, timeoutMs) + box.note(run);
        const result = toToolResult(run, { trailer, isError: failed(run) });
        // Set on the same object: toToolResult marks it as already policed.
        box.mark(result, run);
        return result;
      },
    },
    bashPresenter,
  );
}

/** The last line of a bash result: how the command ended. */
export function statusLine(
  run: Pick<RunResult, "originalBytes" | "timedOut" | "cancelled" | "exitCode"> & {
    signal: string | null;
  },
  timeoutMs?: number,
): string {
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
