// What a custom slash command brings to its turn beyond its prompt: its `allowed-tools` and
// `model` as the prompt's turn scope (the agent applies them to that turn only), and the files
// its body names with `@path`, attached before the prompt is sent (Agent.attachFile: read as
// the model's `read` would, only when that needs no ask). Called by app.ts when a command runs.
import type { Agent, TurnScope } from "../agent/index.ts";
import { fileMentions, type UserCommand } from "./user-commands.ts";

/** The command's turn scope; undefined when it sets neither field. */
export function commandScope(command: UserCommand): TurnScope | undefined {
  if (command.allowedTools.length === 0 && command.model === undefined) return undefined;
  return {
    by: `/${command.name}`,
    source: command.source === "user" ? "user" : "project",
    path: command.path,
    ...(command.allowedTools.length > 0 ? { allowedTools: command.allowedTools } : {}),
    ...(command.model ? { model: command.model } : {}),
  };
}

/**
 * Attaches each `@path` of the command's body; a file that is not attached (missing, denied,
 * outside what the model may read unasked) is one line of `say` (which escapes it), and the
 * prompt still goes.
 */
export async function attachCommandFiles(
  agent: Agent,
  command: UserCommand,
  say: (line: string) => void,
): Promise<void> {
  for (const path of fileMentions(command.body)) {
    const read = await agent.attachFile(path);
    if (!read.ok) say(`@${path} not attached: ${read.reason}`);
  }
}
