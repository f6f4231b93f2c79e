// A ToolSource shaped like an MCP server, for tests of the seam (never shipped): it starts
// after a delay, declares its tools' inputs as JSON Schema (validated by Ajv), turns a tool
// whose schema does not compile into a notice, and can change its list later (`change`),
// as a server's list_changed would. `disposed` tells whether the session closed it.
import { setTimeout as delay } from "node:timers/promises";
import type { JsonValue } from "../../src/session/events.ts";
import { defineTool } from "../../src/tools/define-tool.ts";
import { jsonSchemaInput } from "../../src/tools/json-schema-input.ts";
import type { ToolNotice, ToolSource, ToolSourceContext } from "../../src/tools/source.ts";
import type { Tool, ToolKind, ToolResult } from "../../src/tools/types.ts";

/** One tool as a server lists it. */
export interface FakeTool {
  name: string;
  description?: string;
  kind?: ToolKind;
  inputSchema: Record<string, JsonValue>;
  call?(args: JsonValue): Promise<ToolResult> | ToolResult;
}

export interface FakeSource extends ToolSource {
  /** Replaces the list and tells the session (list_changed). */
  change(tools: readonly FakeTool[]): Promise<void>;
  readonly disposed: boolean;
  /** Arguments of every call, in order. */
  readonly calls: Array<{ tool: string; args: JsonValue }>;
}

export function fakeToolSource(
  name: string,
  initial: readonly FakeTool[],
  options: { startupMs?: number } = {},
): FakeSource {
  let context: ToolSourceContext | undefined;
  let current: Tool[] = [];
  let disposed = false;
  const calls: FakeSource["calls"] = [];
  const build = async (list: readonly FakeTool[], notices: ToolNotice[]) => {
    const tools: Tool[] = [];
    for (const fake of list) {
      const compiled = await jsonSchemaInput(fake.inputSchema);
      if (!compiled.ok) {
        notices.push({
          message: `${name}: tool ${fake.name} left out: ${compiled.problem}`,
          level: "tools",
        });
        continue;
      }
      tools.push(
        defineTool({
          name: fake.name,
          description: fake.description ?? `${fake.name} (from ${name})`,
          kind: fake.kind ?? "other",
          readOnly: false,
          input: compiled.input,
          execute: async (args) => {
            calls.push({ tool: fake.name, args: args as JsonValue });
            return fake.call ? fake.call(args as JsonValue) : { content: `${fake.name} ran` };
          },
        }),
      );
    }
    return tools;
  };
  return {
    name,
    calls,
    get disposed() {
      return disposed;
    },
    async open(opened) {
      context = opened;
      await delay(options.startupMs ?? 0);
      const notices: ToolNotice[] = [];
      current = await build(initial, notices);
      return {
        tools: () => current,
        notices,
        dispose: async () => {
          disposed = true;
        },
      };
    },
    async change(tools) {
      const notices: ToolNotice[] = [];
      current = await build(tools, notices);
      for (const notice of notices) context?.notice(notice);
      context?.listChanged();
    },
  };
}
