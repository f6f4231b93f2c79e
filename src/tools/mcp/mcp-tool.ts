// One MCP server tool as a codewhale Tool: named `mcp__SERVER__TOOL` (Claude Code's names),
// its input the server's JSON Schema (bounded and validated by json-schema-input.ts), its kind
// from the annotations (readOnlyHint: read; destructiveHint: delete; explicitly not
// destructive: edit; no hint: other, which every permission mode but bypass asks about), and
// a call that forwards progress (stripped and redacted) and turns the result into text.
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { redactText, stripControls } from "../../runner/index.ts";
import type { JsonValue } from "../../session/events.ts";
import { defineTool } from "../define-tool.ts";
import { jsonSchemaInput } from "../json-schema-input.ts";
import type { PresentedTool } from "../presentation.ts";
import type { ToolContext, ToolKind } from "../types.ts";
import type { McpConnection } from "./connection.ts";
import { resultText } from "./result-text.ts";

/** Tool names the providers accept: `^[A-Za-z0-9_-]{1,64}$`. */
const MAX_TOOL_NAME = 64;
/** The longest description sent to the model (it goes with every request). */
const MAX_DESCRIPTION = 2048;
const MAX_PROGRESS_MESSAGE = 300;

/** `mcp__server__tool`, characters the providers refuse as `_`. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

export function mcpToolKind(tool: McpTool): { kind: ToolKind; readOnly: boolean } {
  const hints = tool.annotations ?? {};
  if (hints.readOnlyHint === true) return { kind: "read", readOnly: true };
  if (hints.destructiveHint === true) return { kind: "delete", readOnly: false };
  if (hints.destructiveHint === false) return { kind: "edit", readOnly: false };
  return { kind: "other", readOnly: false };
}

export type McpToolBuild = { ok: true; tool: PresentedTool } | { ok: false; problem: string };

export async function createMcpTool(
  server: string,
  tool: McpTool,
  connection: McpConnection,
): Promise<McpToolBuild> {
  const name = mcpToolName(server, tool.name);
  if (name.length > MAX_TOOL_NAME) {
    return { ok: false, problem: `its name ${name} is longer than ${MAX_TOOL_NAME} characters` };
  }
  const input = await jsonSchemaInput(tool.inputSchema as Record<string, JsonValue>);
  if (!input.ok) return { ok: false, problem: input.problem };
  const { kind, readOnly } = mcpToolKind(tool);
  const description = stripControls(tool.description ?? tool.title ?? tool.name).slice(
    0,
    MAX_DESCRIPTION,
  );
  const made = defineTool({
    name,
    description,
    kind,
    readOnly,
    input: input.input,
    async execute(args, ctx) {
      const result = await connection.call(tool.name, args as Record<string, unknown>, {
        signal: ctx.signal,
        ...(ctx.progress ? { onProgress: progressReporter(ctx, name) } : {}),
      });
      return resultText(result);
    },
  });
  return { ok: true, tool: made };
}

/**
 * MCP progress notifications as ctx.progress reports, their message stripped and redacted as
 * the tool's result is (its policy, with the session's known secret values).
 */
function progressReporter(ctx: ToolContext, name: string) {
  const policy = ctx.output.policy(name);
  const known = policy.knownSecrets ?? null;
  return (update: { progress: number; total?: number; message?: string }) => {
    const stripped =
      typeof update.message === "string"
        ? stripControls(update.message).slice(0, MAX_PROGRESS_MESSAGE)
        : undefined;
    const message =
      stripped !== undefined && policy.redactSecrets ? redactText(stripped, known) : stripped;
    ctx.progress?.({
      progress: update.progress,
      ...(update.total !== undefined ? { total: update.total } : {}),
      ...(message ? { message } : {}),
    });
  };
}
