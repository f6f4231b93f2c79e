// The tool interface every tool implements: a name, the description the model reads, a zod
// argument schema and an `execute` that honours its AbortSignal. The registry (registry.ts)
// validates arguments before `execute` is called; the agent loop records calls and results.
import type { z } from "zod";

/** What a running tool may know about its call. */
export interface ToolContext {
  /** Aborted when the user cancels; a tool should stop promptly and return. */
  signal: AbortSignal;
  /** The session's working directory. */
  cwd: string;
  sessionId: string;
  /** The id the model gave this call. */
  callId: string;
}

/** What a tool returns; the output policy fills the byte counts and spill fields. */
export interface ToolResult {
  /** Exactly what the model sees. */
  content: string;
  isError?: boolean;
  originalBytes?: number;
  deliveredBytes?: number;
  truncated?: boolean;
  spillPath?: string | null;
  policyErrors?: string[];
}

export interface Tool<Schema extends z.ZodType = z.ZodType> {
  name: string;
  /** The model-facing description; keep it short, it is sent with every request. */
  description: string;
  /** Arguments the model must send; an object schema. */
  schema: Schema;
  /** True when the tool never changes anything outside the session. */
  readOnly: boolean;
  execute(args: z.output<Schema>, ctx: ToolContext): Promise<ToolResult>;
}

/** A tool whose argument type has been erased, as the registry stores it. */
export type AnyTool = Tool<z.ZodType>;

/** Declares a tool with its argument type inferred from the schema. */
export function defineTool<Schema extends z.ZodType>(tool: Tool<Schema>): AnyTool {
  return tool as unknown as AnyTool;
}
