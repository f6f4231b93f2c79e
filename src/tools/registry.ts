// The tool registry: the tools a session offers, their model-facing specs (JSON schema via
// `z.toJSONSchema`), and the one place raw model arguments are parsed and validated. A bad
// call becomes a precise message for the model (field path + problem), never an exception.
import { z } from "zod";
import type { JsonValue } from "../session/events.ts";
import type { AnyTool } from "./types.ts";

/** A tool as the model sees it (the shape of the providers' ToolSpec). */
export interface ToolSpecification {
  name: string;
  description: string;
  inputSchema: Record<string, JsonValue>;
}

/** The outcome of checking one call: the tool and its parsed arguments, or what was wrong. */
export type CheckedCall =
  | { ok: true; tool: AnyTool; args: JsonValue; parsed: unknown }
  | { ok: false; args: JsonValue; reason: string };

export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();

  constructor(tools: Iterable<AnyTool> = []) {
    for (const tool of tools) this.register(tool);
  }

  register(tool: AnyTool): void {
    if (this.tools.has(tool.name)) throw new Error(`tool "${tool.name}" is registered twice`);
    this.tools.set(tool.name, tool);
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** The specs sent with every request, in registration order. */
  specs(): ToolSpecification[] {
    return [...this.tools.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: modelSchema(tool.schema),
    }));
  }

  /** Looks the tool up and validates raw JSON arguments against its schema. */
  check(name: string, rawArguments: string): CheckedCall {
    const args = parseJson(rawArguments);
    const tool = this.tools.get(name);
    if (!tool) {
      const known = this.names();
      const offer = known.length > 0 ? `available tools: ${known.join(", ")}` : "no tools";
      return { ok: false, args: args.value, reason: `unknown tool "${name}" (${offer})` };
    }
    if (!args.ok) {
      return { ok: false, args: args.value, reason: `invalid arguments: ${args.error}` };
    }
    const result = tool.schema.safeParse(args.value);
    if (!result.success) {
      return { ok: false, args: args.value, reason: `invalid arguments: ${issues(result.error)}` };
    }
    return { ok: true, tool, args: args.value, parsed: result.data };
  }
}

/** The JSON schema of a tool's arguments, without the `$schema` line (bytes on every request). */
function modelSchema(schema: z.ZodType): Record<string, JsonValue> {
  const json = z.toJSONSchema(schema, { io: "input" }) as Record<string, JsonValue>;
  const { $schema: _dropped, ...rest } = json;
  return rest;
}

function parseJson(
  raw: string,
): { ok: true; value: JsonValue } | { ok: false; value: JsonValue; error: string } {
  if (raw.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) as JsonValue };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, value: raw, error: `not valid JSON (${detail})` };
  }
}

/** Every issue as `path: message`, the path dotted (`(root)` for the object itself). */
function issues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)";
      return `${path}: ${issue.message}`;
    })
    .join("; ");
}
