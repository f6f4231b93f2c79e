// `bash_output` and `bash_kill`: read what a background process printed since the last read and
// stop it. Ids come from `bash` with `background: true`. The log already holds stripped and
// redacted text; a read keeps at most the bash policy's budget (head and tail of the new text).
// A read that shows the OS sandbox refused the process a write or a connection says so.
import type { RunResult, SandboxAftermath } from "../../runner/index.ts";
import { aftermathNote, sandboxRefusal } from "../../runner/index.ts";
import { defineTool } from "../define-tool.ts";
import type { AnyPresentedTool } from "../presentation.ts";
import { zodInput } from "../tool-input.ts";
import type { BackgroundJob, BackgroundManager } from "./background-manager.ts";
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
        const refused = backgroundRefusal(read.job, window.output);
        const found = read.result ? backgroundFindings(read.job, read.result) : {};
        const note = aftermathNote(found);
        const result = toToolResult(policed, { trailer: `${empty}${status}${refused}${note}` });
        const receipt = context.sandbox?.receipt;
        if (receipt && found.nestedRepos?.length) {
          result.sandbox = { ...receipt, nested_repos: found.nestedRepos };
        }
        return result;
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

/**
 * The sandbox's refusals this read shows (writes and unix sockets in the new output,
 * connections the proxy refused since the last read), with why the command is not offered to
 * run again outside: its call returned long ago, and a second run would start another
 * long-lived process beside it.
 */
function backgroundRefusal(job: BackgroundJob, output: string): string {
  if (!job.sandbox) return "";
  const refused = sandboxRefusal(output, job.sandbox.policy);
  const hosts = [...new Set(job.sandbox.refusedHosts.splice(0))];
  if (!refused && hosts.length === 0) return "";
  const lines = refused ? [refused.note] : [];
  if (hosts.length > 0) {
    lines.push(
      `[sandbox: the OS sandbox's proxy refused ${job.id} connecting to ${hosts.join(", ")}: not in [sandbox.network] allow. This is the sandbox, not a bug in the command.]`,
    );
  }
  lines.push(notRunAgain(job.id, refused?.paths ?? [], refused?.sockets ?? [], hosts));
  return `\n${lines.join("\n")}`;
}

/**
 * Why a background command is not run again outside, and what can be done instead: only what
 * was refused (a path: [sandbox] writable; a host: its allow list; a unix socket: no setting
 * allows one, so it runs outside codewhale or as a foreground step the user lets out).
 */
function notRunAgain(
  id: string,
  paths: readonly string[],
  sockets: readonly string[],
  hosts: readonly string[],
): string {
  const userCan = [
    ...(paths.length > 0 ? ["add the path to [sandbox] writable"] : []),
    ...(hosts.length > 0 ? ["add the host to [sandbox.network] allow"] : []),
    ...(sockets.length > 0
      ? [
          "start it outside codewhale themselves (no setting lets a sandboxed command make a unix socket)",
        ]
      : []),
  ];
  return `[sandbox: a background command is not offered to run again outside the sandbox (its call has returned, and a second run would start another long-lived process beside ${id}). If it needs this, tell the user (they can ${userCan.join(", or ")}), or run the step that needs it as a foreground bash command, which the user can let run again outside the sandbox.]`;
}

/**
 * What the ended process left that the sandbox reports (nested repositories, files set aside
 * or put back), once.
 */
function backgroundFindings(job: BackgroundJob, result: RunResult): SandboxAftermath {
  if (!job.sandbox || job.sandbox.nestedShown) return {};
  job.sandbox.nestedShown = true;
  const { nestedRepos, setAside, restored } = result;
  return { nestedRepos, setAside, restored };
}

function exitText(result: RunResult): string {
  if (result.exitCode !== null) return `exit code ${result.exitCode}`;
  return `killed by ${result.signal ?? "a signal"}`;
}
