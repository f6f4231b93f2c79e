// How a tool call is shown, separate from what it does: a title, an ACP tool kind and file
// locations for the call, a summary or a diff for its result, computed by a ToolPresenter from
// the arguments recorded on `tool/call` and the `tool/result` alone. Surfaces (text,
// stream-json, exports, ACP, terminal UI) call presentToolCall/presentToolResult; a tool
// without a presenter gets a plain fallback.
import type { z } from "zod";
import type { AnyTool, Tool, ToolKind, ToolResult } from "./types.ts";

export type { ToolKind };

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

/**
 * How one tool's calls and results are shown, from the recorded arguments and result alone:
 * no tool object, context or process. The built-in ones are keyed by name in presenters.ts.
 */
export interface ToolPresenter {
  readonly kind: ToolKind;
  /** Arguments are the recorded JSON, possibly invalid. */
  presentCall(args: unknown): CallPresentation;
  presentResult(args: unknown, result: PresentableResult): ResultPresentation;
}

/** A tool that says how it is presented (defineTool with a presenter). */
export interface PresentedTool extends Tool, ToolPresenter {}

/** The typed presenters a tool writes; definePresenter guards them against bad arguments. */
export interface Presenters<Schema extends z.ZodType> {
  kind: ToolKind;
  call(args: z.output<Schema>): Omit<CallPresentation, "kind"> & { kind?: ToolKind };
  result?(args: z.output<Schema>, result: PresentableResult): ResultPresentation;
  /** An error result's summary; without it, "Error: " and the first line. */
  failure?(args: z.output<Schema>, result: PresentableResult): ResultPresentation;
}

export type AnyPresentedTool = PresentedTool;

/**
 * The presenter of the tool `name` whose arguments follow `schema`: recorded arguments that
 * fail the schema get the fallback (the name as title), errors the default summary.
 */
export function definePresenter<Schema extends z.ZodType>(
  name: string,
  schema: Schema,
  presenters: Presenters<Schema>,
): ToolPresenter {
  const parse = (args: unknown): z.output<Schema> | undefined => {
    const parsed = schema.safeParse(args);
    return parsed.success ? parsed.data : undefined;
  };
  return {
    kind: presenters.kind,
    presentCall(args) {
      const valid = parse(args);
      if (valid === undefined) return { title: name, kind: presenters.kind, locations: [] };
      return { kind: presenters.kind, ...presenters.call(valid) };
    },
    presentResult(args, result) {
      const valid = parse(args);
      if (valid !== undefined && result.isError && presenters.failure) {
        return presenters.failure(valid, result);
      }
      if (valid === undefined || !presenters.result || result.isError) {
        return { summary: defaultSummary(result) };
      }
      return presenters.result(valid, result);
    },
  };
}

export function isPresentedTool(tool: AnyTool): tool is AnyPresentedTool {
  return isPresenter(tool);
}

function isPresenter(candidate: object): candidate is ToolPresenter {
  const presenter = candidate as Partial<ToolPresenter>;
  return (
    typeof presenter.presentCall === "function" && typeof presenter.presentResult === "function"
  );
}

/** The presentation of any call; without a presenter (or a tool that has none) `other`. */
export function presentToolCall(
  presenter: ToolPresenter | AnyTool | undefined,
  name: string,
  args: unknown,
): CallPresentation {
  if (presenter && isPresenter(presenter)) return presenter.presentCall(args);
  return { title: name, kind: "other", locations: [] };
}

export function presentToolResult(
  presenter: ToolPresenter | AnyTool | undefined,
  args: unknown,
  result: PresentableResult,
): ResultPresentation {
  if (presenter && isPresenter(presenter)) return presenter.presentResult(args, result);
  return { summary: defaultSummary(result) };
}

/**
 * "1 file", "3 files": a count and its noun with the right plural, for the presenters (the
 * surfaces' own formatter, present/format.ts, sits above tools).
 */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "Error: first line" for errors, else the first line and the line count. */
export function defaultSummary(result: PresentableResult | ToolResult): string {
  const first = firstLine(result.content);
  if (result.isError) return `Error: ${first}`;
  const lines = countLines(result.content);
  return lines > 1 ? `${first} (+${countOf(lines - 1, "line")})` : first;
}

export function firstLine(text: string, max = 120): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * A command's title: its first line cut at `max` characters (`…`), and how many lines follow it
 * when it has more: `cd build (+2 lines)`, so a title never passes for the whole command (bash,
 * external tools; a permission prompt shows it above the whole call).
 */
export function commandTitle(command: string, max: number): string {
  const more = command.replace(/\n+$/, "").split("\n").length - 1;
  const first = firstLine(command, max);
  return more > 0 ? `${first} (+${countOf(more, "line")})` : first;
}

/** A listing's note that files were left out by a read rule (tools/builtin/read-gate.ts). */
const SKIPPED_NOTE =
  /^\(\d+ (?:files?|entry|entries) skipped: a permission rule covers reading (?:it|them)\)$/;

/** The entries of a listing (glob, ls): its lines, less a read rule's skipped-files note. */
export function countListed(text: string): number {
  const lines = text.split("\n").filter((line) => line !== "" && !SKIPPED_NOTE.test(line));
  return lines.length;
}

export function countLines(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}
