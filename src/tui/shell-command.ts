// `!command` in the input editor: the user's own shell command, run by the agent
// (`Agent.runShell`: the bash tool's runner and output policy, recorded as a `context/note`
// from `user:shell` so the next turn's model reads it and a resumed session shows it). Never
// while a turn runs; Esc stops it. Also how such a note is drawn in the transcript. Used by
// app.ts and transcript.ts.
import type { Agent } from "../agent/index.ts";
import { terminalSafe as safe } from "../runner/index.ts";
import type { StatusLine } from "./status-line.ts";
import type { Theme } from "./theme.ts";

/**
 * The `context/note` source of a user's shell command: agent/user-shell.ts's, repeated here so
 * the terminal bundle does not carry the runner (test/tui/shell-command.test.ts keeps them equal).
 */
export const USER_SHELL_SOURCE = "user:shell";
/** Lines of a command's output shown in the transcript; the model gets all the policy kept. */
const SHOWN_LINES = 20;

/** The command of a `!command` prompt, or undefined when it is not one. */
export function shellCommandOf(text: string): string | undefined {
  if (!text.startsWith("!")) return undefined;
  return text.slice(1).trim();
}

export interface ShellDeps {
  agent(): Agent;
  status: StatusLine;
  theme: Theme;
  say(line: string): void;
}

export class ShellCommands {
  private abort: AbortController | undefined;

  constructor(private readonly deps: ShellDeps) {}

  get running(): boolean {
    return this.abort !== undefined;
  }

  cancel(): void {
    this.abort?.abort();
  }

  async run(command: string): Promise<void> {
    const { theme, say, status } = this.deps;
    const agent = this.deps.agent();
    if (!command) return say(theme.warn("! needs a command, e.g. !git status"));
    if (agent.running || this.abort)
      return say(theme.warn("a shell command runs between turns: wait, or Esc to cancel"));
    const abort = new AbortController();
    this.abort = abort;
    status.setRunning(true);
    try {
      const run = await agent.runShell(command, abort.signal);
      if (!run) say(theme.warn("the command did not run (a turn started)"));
    } catch (error) {
      say(
        theme.bad(
          safe(`the command failed: ${error instanceof Error ? error.message : String(error)}`),
        ),
      );
    } finally {
      this.abort = undefined;
      status.setRunning(false);
    }
  }
}

/** A `user:shell` note as the transcript shows it: `! command`, then the output's head. */
export function shellNoteText(note: string, theme: Theme): string {
  const [first = "", ...rest] = note.split("\n");
  const command = first.startsWith("$ ") ? first.slice(2) : first;
  const shown = rest.slice(0, SHOWN_LINES).map((line) => `  ${safe(line)}`);
  const more = rest.length - shown.length;
  if (more > 0) shown.push(theme.dim(`  … ${more} more lines`));
  return [theme.accent(`! ${safe(command)}`), ...shown.map((line) => theme.dim(line))].join("\n");
}
