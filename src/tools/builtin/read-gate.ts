// The one place a reading tool asks whether it may read or list a path: `checkReadable` for the
// path a call names (resolveToolPath calls it for every reader), `readFilter` for the files a
// search or listing finds. A covered file is never opened and never named; the result says
// only how many were skipped. grep (both backends), glob and ls go through here.
import type { BuiltinToolContext } from "./context.ts";
import { ToolProblem } from "./problem.ts";

export interface ReadFilter {
  /** False when no rule can cover anything: callers may skip the work of asking. */
  readonly active: boolean;
  /** True when the file may be read and shown; counts it as skipped otherwise. */
  passes(absolute: string): boolean;
  /** How many paths `passes` refused so far. */
  readonly skipped: number;
}

/** A filter for one call of `tool`; without active rules it passes everything. */
export function readFilter(context: BuiltinToolContext, tool: string): ReadFilter {
  const gate = context.readGate;
  let skipped = 0;
  return {
    active: gate.active,
    passes(absolute) {
      // Found by a walk that follows no symlink: the path is where the file is.
      if (!gate.active || !gate.blocks(tool, absolute, absolute)) return true;
      skipped += 1;
      return false;
    },
    get skipped() {
      return skipped;
    },
  };
}

/**
 * Refuses a path a rule covers for `tool`; `target` is where it really leads (resolveToolPath
 * has followed its symlinks already), `display` the path as the model wrote it.
 */
export function checkReadable(
  context: BuiltinToolContext,
  tool: string,
  absolute: string,
  target: string,
  display: string,
): void {
  if (!context.readGate.active || !context.readGate.blocks(tool, absolute, target)) return;
  throw new ToolProblem(`${display}: a permission rule covers ${tool} reading it`);
}

/** The line a result carries when it left files out, or "" when it left none out. */
export function skippedNote(skipped: number, noun: "file" | "entry" = "file"): string {
  if (skipped === 0) return "";
  const plural = noun === "file" ? "files" : "entries";
  const what = skipped === 1 ? `1 ${noun}` : `${skipped} ${plural}`;
  return `(${what} skipped: a permission rule covers reading ${skipped === 1 ? "it" : "them"})`;
}
