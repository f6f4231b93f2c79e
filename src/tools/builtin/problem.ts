// A failure the model should read and fix (a missing file, a path outside the workspace):
// thrown inside a tool and turned into an error result by `guarded`, never past the tool. Names
// and text the model gave, echoed in messages, show their control characters as visible escapes.
import { terminalSafe } from "../../runner/index.ts";
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
      return { content: terminalSafe(error.message), isError: true };
    throw error;
  }
}

/** The errno code of a failed fs call, if any. */
export function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}
