// The slash commands of the interactive terminal: their names and help for the editor's
// completion, and `parseSlash`, which splits "/model openai/gpt-5" into a command and its
// argument. What each one does is app.ts's (it owns the session); this file only names them.
import type { SlashCommand } from "@mariozechner/pi-tui";
import type { PermissionMode } from "../config/index.ts";

export const SLASH_COMMANDS = [
  { name: "help", description: "keys and commands" },
  { name: "thinking", description: "show or hide thinking (display only)" },
  {
    name: "mode",
    description: "permission mode: default, accept-edits, plan, …",
    argumentHint: "<mode>",
  },
  {
    name: "model",
    description: "continue this session with another model",
    argumentHint: "<provider/model>",
  },
  { name: "cost", description: "this session's tokens, cost and time" },
  { name: "new", description: "start a new session" },
  { name: "quit", description: "leave (also Ctrl-D)" },
] as const satisfies readonly SlashCommand[];

export type SlashName = (typeof SLASH_COMMANDS)[number]["name"];

export type ParsedSlash =
  | { ok: true; name: SlashName; argument: string }
  | { ok: false; message: string };

/** `text` starts with "/"; "/exit" is taken for "/quit", as in Claude Code and Codex. */
export function parseSlash(text: string): ParsedSlash {
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(text.trim());
  const given = (match?.[1] ?? "").toLowerCase();
  const name = given === "exit" ? "quit" : given;
  const known = SLASH_COMMANDS.find((command) => command.name === name);
  if (!known) return { ok: false, message: `unknown command /${given} (see /help)` };
  return { ok: true, name: known.name, argument: (match?.[2] ?? "").trim() };
}

export function helpLines(): string[] {
  const keys = [
    "Enter send · Shift+Enter or \\ then Enter: new line · Up/Down: history",
    "Esc: cancel the running turn · Ctrl-C: clear, cancel, twice to exit · Ctrl-D: exit",
    "Typing while a turn runs queues the message for the next turn",
  ];
  const commands = SLASH_COMMANDS.map((command) => {
    const hint = "argumentHint" in command ? ` ${command.argumentHint}` : "";
    return `/${command.name}${hint}  ${command.description}`;
  });
  return [...keys, ...commands];
}

/**
 * Shift+Tab's next mode. `bypass` is in the cycle only when the session started in it (as
 * Claude Code offers bypass only when launched with it): a key press never turns asks off.
 */
export function nextMode(
  modes: readonly PermissionMode[],
  current: PermissionMode,
  started: PermissionMode,
): PermissionMode {
  const cycle = modes.filter((mode) => mode !== "bypass" || started === "bypass");
  return cycle[(cycle.indexOf(current) + 1) % cycle.length] ?? current;
}
