// The user's own shell command (`!command` in the terminal): run like the bash tool runs one
// (the shared runner in the workspace, the bash tool's output policy: controls stripped,
// secrets redacted, bounded with a spill file; its default timeout; the environment without
// codewhale's provider keys), then kept for the model as a `context/note` from `user:shell`,
// which replay places before the next prompt. No permission check: the user typed it; it runs in
// the session's OS sandbox like a bash command (its proxy's connections go to `onConnection`).
// Called by agent.ts (`Agent.runShell`).
import type { ProxiedConnection } from "../runner/index.ts";
import { aftermathNote, redactText, runCommand, sandboxRefusalNote } from "../runner/index.ts";
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
  onConnection?: (connection: ProxiedConnection) => void,
): Promise<UserShellRun> {
  const policy = workspace.policy("bash");
  const shown = redactText(command, policy.knownSecrets ?? null);
  const sandbox = workspace.sandbox;
  if (sandbox?.refusal) {
    const output = `Not run: ${sandbox.refusal}.`;
    return { command: shown, output, exitCode: null, note: `$ ${shown}\n${output}` };
  }
  const confined = sandbox?.runSpec
    ? { sandbox: { ...sandbox.runSpec, ...(onConnection ? { onConnection } : {}) } }
    : {};
  const timeoutMs = workspace.bashTimeout.defaultMs;
  const run = await runCommand(
    {
      command,
      cwd: workspace.cwd,
      env: workspace.env,
      timeoutMs,
      ...(signal ? { signal } : {}),
      ...confined,
    },
    policy,
    { spill: workspace.spill },
  );
  const refused =
    run.exitCode !== 0 ? sandboxRefusalNote(run.output, sandbox?.policy ?? null) : null;
  const trailer = statusLine(run, timeoutMs) + (refused ? `\n${refused}` : "") + aftermathNote(run);
  const output = toToolResult(run, { trailer }).content;
  return { command: shown, output, exitCode: run.exitCode, note: `$ ${shown}\n${output}` };
}
