// The slash commands the bridge runs itself, the one list of them: sent to the client as
// `available_commands_update` when a session opens (editors offer them on "/"), and matched in
// a prompt by `commandOf`; acp-session.ts runs them. A prompt starting with "/" that names none
// of them goes to the model as written.
import type { AvailableCommand } from "@agentclientprotocol/sdk";

export const ACP_COMMANDS = [
  {
    name: "model",
    description: "continue this session with another model",
    input: { hint: "provider/model" },
  },
  {
    name: "thinking",
    description: "thinking level of each request: off, low, medium or high",
    input: { hint: "off | low | medium | high" },
  },
  {
    name: "mode",
    description: "permission mode: default, accept-edits, plan or bypass",
    input: { hint: "mode" },
  },
  {
    name: "plan",
    description: "plan mode: the model plans, read-only, then asks you to approve the plan",
    input: { hint: "what to plan (optional: sent as the prompt)" },
  },
  { name: "title", description: "name this session", input: { hint: "title" } },
  {
    name: "rewind",
    description: "put the files (or the conversation) back as before prompt N, or redo",
    input: { hint: "N [code|conversation|both] [--force] | redo" },
  },
  {
    name: "compact",
    description: "summarise the conversation so far to free the context (the log keeps it all)",
    input: { hint: "what the summary should keep (optional)" },
  },
] as const satisfies readonly AvailableCommand[];

export type AcpCommandName = (typeof ACP_COMMANDS)[number]["name"];

/** The command a prompt runs, with its argument; undefined when it is a prompt for the model. */
export function commandOf(text: string): { name: AcpCommandName; argument: string } | undefined {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  const command = ACP_COMMANDS.find((known) => known.name === match[1]);
  return command ? { name: command.name, argument: (match[2] ?? "").trim() } : undefined;
}

export function availableCommands(): AvailableCommand[] {
  return ACP_COMMANDS.map((command) => ({ ...command, input: { ...command.input } }));
}
