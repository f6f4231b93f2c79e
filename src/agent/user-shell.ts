// The user's own shell command (`!command` in the terminal): run like the bash tool runs one
// (the shared runner in the workspace, the bash tool's output policy: controls stripped,
// secrets redacted, bounded with a spill file; its default timeout; the environment without
// codewhale's provider keys), then kept for the model as a `context/note` from `user:shell`,
// which replay places before the next prompt. No permission check: the user typed it.
// Called by agent.ts (`Agent.runShell`).
import { redactText, runCommand } from "../runner/index.ts";
import { statusLine } from "../tools/builtin/bash.ts";
import type { BuiltinToolContext } from "../tools/builtin/context.ts";
import { toToolResult } from "../tools/builtin/policed.ts";

/** The `context/note` source of a user's shell command. */
export const USER_SHELL_SOURCE = "user:shell";

export interface UserShellRun {
  /** The command as recorded: redacted like its output. */
  command: string;
  /** The policed output with its status line (`[exit code 0]`), as the model reads it. */
  output: string;
  exitCode: number | null;
  /** The note's text: `$ <command>`, a newline, then `output`. */
  note: string;
}

export async function runUserShell(
  workspace: BuiltinToolContext,
  command: string,
  signal?: AbortSignal,
): Promise<UserShellRun> {
  const policy = workspace.policy("bash");
  const timeoutMs = workspace.bashTimeout.defaultMs;
  const run = await runCommand(
    { command, cwd: workspace.cwd, env: workspace.env, timeoutMs, ...(signal ? { signal } : {}) },
    policy,
    { spill: workspace.spill },
  );
  const output = toToolResult(run, { trailer: statusLine(run, timeoutMs) }).content;
  const shown = redactText(command, policy.knownSecrets ?? null);
  return { command: shown, output, exitCode: run.exitCode, note: `$ ${shown}\n${output}` };
}
