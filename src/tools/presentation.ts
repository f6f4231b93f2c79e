// How a tool call is shown, separate from what it does: a title, an ACP tool kind and file
// locations for the call, a summary or a diff for its result. Surfaces (text, stream-json,
// exports, ACP, terminal UI) call presentToolCall/presentToolResult with the arguments recorded
// on `tool/call`; tools that do not present themselves get a plain fallback.
import type { z } from "zod";
import type { AnyTool, Tool, ToolResult } from "./types.ts";

/** ACP's tool kinds. */
export type ToolKind =
  | "read"
  | "edit"
  | "delete"
  | "move"
  | "search"
  | "execute"
  | "think"
  | "fetch"
  | "other";

export interface ToolLocation {
  path: string;
  /** 1-based line, when the call is about one place in the file. */
  line?: number;
}

export interface CallPresentation {
  title: string;
  kind: ToolKind;
  locations: ToolLocation[];
}

/** A change to one file, as ACP's diff content: `oldText` null for a new or unknown file. */
export interface FileDiff {
  path: string;
  oldText: string | null;
  newText: string;
}

export interface ResultPresentation {
  /** One short line: "exit 0, 12 lines", "3 matches in 2 files", "Error: …". */
  summary: string;
  diff?: FileDiff;
}

/** What a surface knows of a result after replay: the `tool/result` content and error flag. */
export interface PresentableResult {
  content: string;
  isError?: boolean;
}

/** A tool that says how it is presented. Arguments are the recorded JSON, possibly invalid. */
export interface PresentedTool<Schema extends z.ZodType = z.ZodType> extends Tool<Schema> {
  kind: ToolKind;
  presentCall(args: unknown): CallPresentation;
  presentResult(args: unknown, result: PresentableResult): ResultPresentation;
}

/** The typed presenters a tool writes; definePresentedTool guards them against bad arguments. */
export interface Presenters<Schema extends z.ZodType> {
  kind: ToolKind;
  call(args: z.output<Schema>): Omit<CallPresentation, "kind"> & { kind?: ToolKind };
  result?(args: z.output<Schema>, result: PresentableResult): ResultPresentation;
}

export type AnyPresentedTool = PresentedTool<z.ZodType>;

/** Declares a tool with presenters; recorded arguments that fail the schema get the fallback. */
export function definePresentedTool<Schema extends z.ZodType>(
  tool: Tool<Schema>,
  presenters: Presenters<Schema>,
): AnyPresentedTool {
  const parse = (args: unknown): z.output<Schema> | undefined => {
    const parsed = tool.schema.safeParse(args);
    return parsed.success ? parsed.data : undefined;
  };
  const presented: PresentedTool<Schema> = {
    ...tool,
    kind: presenters.kind,
    presentCall(args) {
      const valid = parse(args);
      if (valid === undefined) return { title: tool.name, kind: presenters.kind, locations: [] };
      return { kind: presenters.kind, ...presenters.call(valid) };
    },
    presentResult(args, result) {
      const valid = parse(args);
      if (valid === undefined || !presenters.result || result.isError) {
        return { summary: defaultSummary(result) };
      }
      return presenters.result(valid, result);
    },
  };
  return presented as unknown as AnyPresentedTool;
}

export function isPresentedTool(tool: AnyTool): tool is AnyPresentedTool {
  const candidate = tool as Partial<AnyPresentedTool>;
  return (
    typeof candidate.presentCall === "function" && typeof candidate.presentResult === "function"
  );
}

/** The presentation of any tool's call; unknown tools (or none) are `other`, titled by name. */
export function presentToolCall(
  tool: AnyTool | undefined,
  name: string,
  args: unknown,
): CallPresentation {
  if (tool && isPresentedTool(tool)) return tool.presentCall(args);
  return { title: name, kind: "other", locations: [] };
}

export function presentToolResult(
  tool: AnyTool | undefined,
  args: unknown,
  result: PresentableResult,
): ResultPresentation {
  if (tool && isPresentedTool(tool)) return tool.presentResult(args, result);
  return { summary: defaultSummary(result) };
}

/** "Error: first line" for errors, else the first line and the line count. */
export function defaultSummary(result: PresentableResult | ToolResult): string {
  const first = firstLine(result.content);
  if (result.isError) return `Error: ${first}`;
  const lines = countLines(result.content);
  return lines > 1 ? `${first} (+${lines - 1} lines)` : first;
}

export function firstLine(text: string, max = 120): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function countLines(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}
