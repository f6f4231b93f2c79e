// What the user types to use an MCP server's prompt or resource, read the same way on every
// surface: `/mcp__server__prompt a "b c"` (arguments positional in the prompt's declared
// order, the last one taking the rest; a missing required one is one line naming it) and
// `@server:uri` mentions of a connected server. The terminal UI and ACP call these.
import type { McpPromptInfo } from "./mcp-catalog.ts";

export type PromptArguments =
  | { ok: true; args: Record<string, string> }
  | { ok: false; message: string };

/** The command's usage line, e.g. `/mcp__docs__search <query> [limit]`. */
export function promptUsage(prompt: McpPromptInfo): string {
  const names = prompt.arguments.map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`));
  return [prompt.command, ...names].join(" ");
}

/** The prompt's arguments from the text after its command. */
export function promptArguments(prompt: McpPromptInfo, text: string): PromptArguments {
  const words = splitWords(text);
  const declared = prompt.arguments;
  const args: Record<string, string> = {};
  declared.forEach((arg, i) => {
    const last = i === declared.length - 1;
    const value = last ? words.slice(i).join(" ") : words[i];
    if (value !== undefined && value !== "") args[arg.name] = value;
  });
  const missing = declared.filter((arg) => arg.required && args[arg.name] === undefined);
  if (missing.length > 0) {
    const names = missing.map((arg) => arg.name).join(", ");
    return { ok: false, message: `${prompt.command} needs ${names}: ${promptUsage(prompt)}` };
  }
  if (declared.length === 0 && words.length > 0) {
    return { ok: false, message: `${prompt.command} takes no arguments` };
  }
  return { ok: true, args };
}

/** Words split at spaces; "double quotes" keep spaces in one. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|(\S+)/g)) words.push(match[1] ?? match[2] ?? "");
  return words;
}

export interface ResourceMention {
  server: string;
  uri: string;
  /** As typed: `@server:uri`. */
  mention: string;
}

/** The `@server:uri` mentions in `text` of the given servers, each once, in order. */
export function resourceMentions(text: string, servers: readonly string[]): ResourceMention[] {
  const out: ResourceMention[] = [];
  for (const match of text.matchAll(/(?:^|\s)@([A-Za-z0-9_-]+):(\S+)/g)) {
    const server = match[1] ?? "";
    const uri = (match[2] ?? "").replace(/[.,;:!?)]+$/, "");
    const mention = `@${server}:${uri}`;
    if (!servers.includes(server) || uri === "") continue;
    if (!out.some((seen) => seen.mention === mention)) out.push({ server, uri, mention });
  }
  return out;
}
