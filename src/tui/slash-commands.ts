// The slash commands of the interactive terminal: their names and help for the editor's
// completion, and `parseSlash`, which splits "/model openai/gpt-5" into a command and its
// argument. What each one does is app.ts's (it owns the session); this file only names them.
import type { SlashCommand } from "@mariozechner/pi-tui";
import type { PermissionMode } from "../config/index.ts";
import { terminalSafe as safe } from "../runner/index.ts";
import { keyLabel } from "./keybindings.ts";
import type { LoadedCommands } from "./user-commands.ts";

export const SLASH_COMMANDS = [
  { name: "help", description: "keys and commands" },
  { name: "thinking", description: "show or hide thinking (display only)" },
  {
    name: "theme",
    description: "the terminal's colours: auto, dark or light",
    argumentHint: "[name]",
  },
  {
    name: "mode",
    description: "permission mode: default, accept-edits, plan, …",
    argumentHint: "<mode>",
  },
  {
    name: "plan",
    description: "plan mode: the model plans, read-only, then asks you to approve",
    argumentHint: "[description]",
  },
  {
    name: "model",
    description: "continue this session with another model",
    argumentHint: "<provider/model>",
  },
  {
    name: "effort",
    description: "reasoning effort of the next requests: off, minimal, low, medium, high",
    argumentHint: "[level]",
  },
  { name: "vim", description: "turn vim's normal and insert modes on or off in the editor" },
  { name: "cost", description: "this session's tokens, cost and time" },
  { name: "stats", description: "this session's bytes, tokens, cache and cost per turn" },
  { name: "verify", description: "check this session's log: hash chain and signed checkpoints" },
  {
    name: "export",
    description: "write this session as Markdown or HTML with a signed receipt",
    argumentHint: "[md|html] [path]",
  },
  { name: "sessions", description: "the sessions of this workspace" },
  { name: "resume", description: "pick a session to continue (type to search their content)" },
  {
    name: "search",
    description: "search what past sessions said and did; Enter resumes the one picked",
    argumentHint: '<words or "a phrase">',
  },
  {
    name: "compact",
    description: "summarise the conversation so far to free context",
    argumentHint: "[focus]",
  },
  {
    name: "title",
    description: "name this session (listings show the name)",
    argumentHint: "<name>",
  },
  {
    name: "rewind",
    description: "put code and conversation back as before a prompt (Esc Esc)",
    argumentHint: "[N] [code|conversation|both] [--force]",
  },
  { name: "undo", description: "rewind code and conversation to before the last prompt" },
  { name: "redo", description: "undo the last rewind" },
  {
    name: "diff",
    description: "the workspace now against before prompt N (default: the last)",
    argumentHint: "[N]",
  },
  { name: "skills", description: "the skills the model may load (SKILL.md)" },
  {
    name: "memory",
    description: "open an instruction file (AGENTS.md, CLAUDE.md, rules) in your editor",
  },
  {
    name: "init",
    description: "have the model write an AGENTS.md for this repository",
    argumentHint: "[update]",
  },
  { name: "new", description: "start a new session" },
  { name: "quit", description: "leave (also Ctrl-D)" },
] as const satisfies readonly SlashCommand[];

export type SlashName = (typeof SLASH_COMMANDS)[number]["name"];

export type ParsedSlash =
  | { ok: true; name: SlashName; argument: string }
  | { ok: false; given: string; argument: string; message: string };

/** `text` starts with "/"; "/exit" is taken for "/quit", as in Claude Code and Codex. */
export function parseSlash(text: string): ParsedSlash {
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(text.trim());
  const given = (match?.[1] ?? "").toLowerCase();
  const name = given === "exit" ? "quit" : given;
  const argument = (match?.[2] ?? "").trim();
  const known = SLASH_COMMANDS.find((command) => command.name === name);
  if (!known)
    return { ok: false, given, argument, message: `unknown command /${given} (see /help)` };
  return { ok: true, name: known.name, argument };
}

/** The names user-defined commands may not take. */
export const BUILTIN_NAMES: ReadonlySet<string> = new Set([
  ...SLASH_COMMANDS.map((command) => command.name),
  "exit",
]);

/**
 * What completion offers: the built-ins, the MCP servers' prompts (mcp-input.ts), then the
 * user-defined commands with their source.
 */
export function completionCommands(
  user: LoadedCommands,
  mcp: readonly SlashCommand[] = [],
): SlashCommand[] {
  return [
    ...SLASH_COMMANDS,
    ...mcp,
    ...user.commands.map((command) => ({
      name: command.name,
      description: `${safe(command.description)} (${command.source})`,
      ...(command.argumentHint ? { argumentHint: safe(command.argumentHint) } : {}),
    })),
  ];
}

export function helpLines(
  user: LoadedCommands = { commands: [], skipped: [] },
  mcp: readonly string[] = [],
): string[] {
  // The keys as keybindings.json binds them (the user's file names them: escaped).
  const k = (id: string) => safe(keyLabel(id));
  const send = k("tui.input.submit");
  const keys = [
    `${send} send · ${k("tui.input.newLine")} or \\ then ${send}: new line · ${k("tui.editor.cursorUp")}/${k("tui.editor.cursorDown")}: history · ${k("app.historySearch")}: search it`,
    `${k("app.interrupt")}: cancel the running turn · ${k("app.clear")}: clear, cancel, twice to exit · ${k("app.exit")}: exit`,
    `${k("app.cycleMode")}: next permission mode · @path: a workspace file · !command: run it yourself`,
    `${k("app.expandCard")}: expand or collapse a tool card (the focused one, else the newest)`,
    `${k("app.cardPrevious")}/${k("app.cardNext")}: focus an earlier/later tool card`,
    "Typing while a turn runs queues the message for the next turn",
  ];
  const commands = SLASH_COMMANDS.map((command) => {
    const hint = "argumentHint" in command ? ` ${command.argumentHint}` : "";
    return `/${command.name}${hint}  ${command.description}`;
  });
  const own = user.commands.map((command) => {
    const hint = command.argumentHint ? ` ${command.argumentHint}` : "";
    return safe(`/${command.name}${hint}  ${command.description} (${command.source})`);
  });
  const skipped = user.skipped.map((line) => safe(`not loaded: ${line}`));
  return [...keys, ...commands, ...mcp, ...own, ...skipped];
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
