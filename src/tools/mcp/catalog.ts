// The agent-side API for the prompts and resources of a session's MCP servers, for surfaces to
// wire (slash commands `/mcp__server__prompt`, attachments `@server:uri`): list them, get a
// prompt's text with its arguments, read a resource's text. Everything returned that came
// from a server and is meant for the model or the screen goes through the output policy
// (bounded, stripped, redacted). source.ts registers each connected server; the agent exposes
// the catalog (`agent.mcp`).

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { OutputPolicy } from "../../runner/index.ts";
import { applyOutputPolicy, stripControls } from "../../runner/index.ts";
import type { McpCatalog, McpPromptInfo, McpResourceInfo } from "../mcp-catalog.ts";
import type { McpConnection } from "./connection.ts";
import { mcpToolName } from "./mcp-tool.ts";

/** How long one prompts/resources request may take. */
const REQUEST_TIMEOUT_MS = 30_000;

export interface CatalogRegistry {
  catalog: McpCatalog;
  add(server: string, connection: McpConnection): void;
}

export function createCatalogRegistry(policy: (name: string) => OutputPolicy): CatalogRegistry {
  const servers = new Map<string, McpConnection>();
  const clientOf = (server: string) => {
    const client = servers.get(server)?.client;
    if (!client) throw new Error(`MCP server "${server}" is not connected`);
    return client;
  };
  const policed = async (name: string, text: string) =>
    (await applyOutputPolicy(text, { ...policy(name), spillToTemp: false }, { spill: null }))
      .output;
  /** What each connected server with `capability` lists; a server that fails lists nothing. */
  const fromEach = async <T>(
    capability: "prompts" | "resources",
    list: (server: string, client: Client) => Promise<T[]>,
  ): Promise<T[]> => {
    const lists = await Promise.all(
      [...servers].map(([server, connection]) => {
        const client = connection.client;
        if (!client?.getServerCapabilities()?.[capability]) return [];
        return list(server, client).catch((): T[] => []);
      }),
    );
    return lists.flat();
  };
  const catalog: McpCatalog = {
    servers: () => [...servers.keys()],
    prompts: () =>
      fromEach("prompts", async (server, client) => {
        const listed = await client.listPrompts({}, { timeout: REQUEST_TIMEOUT_MS });
        return listed.prompts.map(
          (prompt): McpPromptInfo => ({
            server,
            name: prompt.name,
            command: `/${mcpToolName(server, prompt.name)}`,
            description: stripControls(prompt.description ?? "").slice(0, 500),
            arguments: (prompt.arguments ?? []).map((arg) => ({
              name: arg.name,
              required: arg.required === true,
              ...(arg.description ? { description: stripControls(arg.description) } : {}),
            })),
          }),
        );
      }),
    async getPrompt(server, name, args) {
      const got = await clientOf(server).getPrompt(
        { name, arguments: args },
        { timeout: REQUEST_TIMEOUT_MS },
      );
      const text = got.messages
        .map((message) =>
          message.content.type === "text"
            ? message.content.text
            : `[${message.content.type} block: not shown]`,
        )
        .join("\n\n");
      return policed(mcpToolName(server, name), text);
    },
    resources: () =>
      fromEach("resources", async (server, client) => {
        const listed = await client.listResources({}, { timeout: REQUEST_TIMEOUT_MS });
        return listed.resources.map(
          (resource): McpResourceInfo => ({
            server,
            uri: resource.uri,
            name: stripControls(resource.name),
            mention: `@${server}:${resource.uri}`,
            ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
          }),
        );
      }),
    async readResource(server, uri, signal) {
      const read = await clientOf(server).readResource(
        { uri },
        { timeout: REQUEST_TIMEOUT_MS, ...(signal ? { signal } : {}) },
      );
      const text = read.contents
        .map((content) =>
          "text" in content && typeof content.text === "string"
            ? content.text
            : `[binary ${content.uri}: not shown]`,
        )
        .join("\n");
      return policed(`mcp__${server}`, text);
    },
  };
  return {
    catalog,
    add(server, connection) {
      servers.set(server, connection);
    },
  };
}
