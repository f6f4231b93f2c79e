// The MCP servers' prompts as ACP slash commands: listed in `available_commands_update` as
// `mcp__server__prompt` (beside the bridge's own), and a prompt `/mcp__server__prompt args`
// turned into the server prompt's text (arguments positional in declared order, through the
// output policy) that runs as the user's prompt. acp-session.ts calls these.
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { terminalSafeLine } from "../runner/index.ts";
import type { McpCatalog, McpPromptInfo } from "../tools/mcp-catalog.ts";
import { promptArguments, promptUsage } from "../tools/mcp-prompt-input.ts";

/** The prompts as available commands (`input.hint` their arguments, when they take any). */
export function promptCommands(prompts: readonly McpPromptInfo[]): AvailableCommand[] {
  return prompts.map((prompt) => {
    const hint = promptUsage(prompt).slice(prompt.command.length + 1);
    return {
      name: prompt.command.slice(1),
      description: terminalSafeLine(
        `${prompt.description || "MCP prompt"} (MCP server ${prompt.server})`,
      ),
      ...(hint ? { input: { hint: terminalSafeLine(hint) } } : {}),
    };
  });
}

export type PromptUse =
  | { use: "none" }
  | { use: "text"; text: string }
  | { use: "refused"; message: string };

/**
 * What a prompt that starts `/mcp__…` stands for: the server prompt's text, or one line why
 * not (a missing required argument, the server's refusal); `none` for any other prompt.
 */
export async function usePrompt(
  text: string,
  prompts: readonly McpPromptInfo[],
  catalog: McpCatalog,
): Promise<PromptUse> {
  const match = /^\/(mcp__\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const prompt = match && prompts.find((known) => known.command === `/${match[1]}`);
  if (!match || !prompt) return { use: "none" };
  const parsed = promptArguments(prompt, (match[2] ?? "").trim());
  if (!parsed.ok) return { use: "refused", message: parsed.message };
  try {
    return { use: "text", text: await catalog.getPrompt(prompt.server, prompt.name, parsed.args) };
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split("\n", 1)[0];
    return { use: "refused", message: `${prompt.command} failed: ${reason}` };
  }
}
