// A failure the model should read and fix (a missing file, a path outside the workspace):
// thrown inside a tool and turned into an error result by `guarded`, never past the tool. Names
// and text the model gave, echoed in messages, show their control characters as visible escapes.
import type { ToolResult } from "../types.ts";

export class ToolProblem extends Error {
  override readonly name = "ToolProblem";
}

/** Runs a tool body; a ToolProblem becomes `{ content: message, isError: true }`. */
export async function guarded(body: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ToolProblem)
      return { content: visibleLines(error.message), isError: true };
    throw error;
  }
}

/** The errno code of a failed fs call, if any. */
export function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\x00-\x1f\x7f-\x9f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_BUT_LINES = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** A name or text on one line: every control character (tab, newline too) as `\x1b`. */
export function visible(text: string): string {
  return text.replace(CONTROL, escaped);
}

/** A message: control characters as `\x1b`, but tab and newline kept. */
export function visibleLines(text: string): string {
  return text.replace(CONTROL_BUT_LINES, escaped);
}

function escaped(char: string): string {
  return `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`;
}
