// The MCP servers' prompts and resources in the terminal's input: each prompt a slash command
// `/mcp__server__prompt [args]` (completion and /help list them; using one sends the prompt's
// messages, through the output policy, as the user's prompt) and `@server:uri` mentions that
// attach a resource (completion lists a server's resources after `@server:`; on send each
// mention is read and recorded as what the user attached, Agent.attachResource). The lists
// are read from `agent.mcp` when a session is shown and after each turn. Used by app.ts and
// completion.ts.
import type { SlashCommand } from "@mariozechner/pi-tui";
import type { Agent } from "../agent/index.ts";
import { terminalSafe as safe } from "../runner/index.ts";
import type { McpPromptInfo, McpResourceInfo } from "../tools/mcp-catalog.ts";
import { promptArguments, promptUsage, resourceMentions } from "../tools/mcp-prompt-input.ts";

export type McpInputResult = { ok: true; text: string } | { ok: false; message: string };

export class McpInput {
  private prompts: McpPromptInfo[] = [];
  private resources: McpResourceInfo[] = [];

  constructor(private readonly agent: () => Agent) {}

  /** Reads the session's prompts and resources again; a failing server lists nothing. */
  async refresh(): Promise<void> {
    const catalog = this.agent().mcp;
    const [prompts, resources] = await Promise.all([
      catalog.prompts().catch((): McpPromptInfo[] => []),
      catalog.resources().catch((): McpResourceInfo[] => []),
    ]);
    this.prompts = prompts;
    this.resources = resources;
  }

  /** The prompts as completion offers them. */
  commands(): SlashCommand[] {
    return this.prompts.map((prompt) => {
      const hint = promptUsage(prompt).slice(prompt.command.length + 1);
      return {
        name: prompt.command.slice(1),
        description: `${safe(prompt.description || "MCP prompt")} (mcp ${prompt.server})`,
        ...(hint ? { argumentHint: safe(hint) } : {}),
      };
    });
  }

  /** The prompts as /help lists them, and how to attach a resource. */
  helpLines(): string[] {
    if (this.prompts.length === 0 && this.resources.length === 0) return [];
    const lines = this.prompts.map((prompt) =>
      safe(`${promptUsage(prompt)}  ${prompt.description || "MCP prompt"} (mcp ${prompt.server})`),
    );
    const servers = [...new Set(this.resources.map((resource) => resource.server))];
    if (servers.length > 0)
      lines.push(safe(`@server:uri: attach an MCP resource (${servers.join(", ")})`));
    return lines;
  }

  /** The prompt a typed command name (`mcp__srv__review`, any case) stands for. */
  find(given: string): McpPromptInfo | undefined {
    const name = given.toLowerCase();
    return this.prompts.find((prompt) => prompt.command.slice(1).toLowerCase() === name);
  }

  /** The prompt's messages with `argument` as its positional arguments, or one line why not. */
  async expand(prompt: McpPromptInfo, argument: string): Promise<McpInputResult> {
    const parsed = promptArguments(prompt, argument);
    if (!parsed.ok) return parsed;
    try {
      const text = await this.agent().mcp.getPrompt(prompt.server, prompt.name, parsed.args);
      return { ok: true, text };
    } catch (error) {
      return { ok: false, message: `${prompt.command} failed: ${messageOf(error)}` };
    }
  }

  /** The resources of `server` (completion after `@server:`). */
  resourcesOf(server: string): McpResourceInfo[] {
    return this.resources.filter((resource) => resource.server === server);
  }

  /** The servers whose resources can be mentioned. */
  servers(): string[] {
    return [...new Set(this.resources.map((resource) => resource.server))];
  }

  /** True when `text` mentions a resource of a connected server. */
  mentions(text: string): boolean {
    return resourceMentions(text, this.agent().mcp.servers()).length > 0;
  }

  /**
   * Attaches every `@server:uri` of a connected server in `text`, in order, telling `reading`
   * before each read; the first that cannot be read, or an abort of `signal`, stops it with one
   * line (what was attached before it stays recorded).
   */
  async attach(
    text: string,
    signal: AbortSignal,
    reading: (mention: string) => void,
  ): Promise<{ ok: true; attached: string[] } | McpInputFailure> {
    const agent = this.agent();
    const attached: string[] = [];
    for (const mention of resourceMentions(text, agent.mcp.servers())) {
      reading(mention.mention);
      try {
        await agent.attachResource(mention.server, mention.uri, signal);
        attached.push(mention.mention);
      } catch (error) {
        const why = signal.aborted ? "stopped" : `could not attach ${mention.mention}`;
        return { ok: false, message: signal.aborted ? why : `${why}: ${messageOf(error)}` };
      }
    }
    return { ok: true, attached };
  }
}

type McpInputFailure = { ok: false; message: string };

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n", 1)[0] ?? "";
}
