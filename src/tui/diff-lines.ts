// A file change as coloured unified-diff lines for a tool card: hunks from jsdiff's
// structuredPatch (two lines of context), `+` green, `-` red, hunk headers dim, cut after
// `maxLines` with a count of what is left out; file text is shown through `safe`. Called by tool-card.ts with a presenter's FileDiff.
import { structuredPatch } from "diff";
import { terminalSafe as safe } from "../runner/index.ts";
import type { FileDiff } from "../tools/presentation.ts";
import type { Theme } from "./theme.ts";

export function diffLines(diff: FileDiff, theme: Theme, maxLines = 24): string[] {
  const patch = structuredPatch(diff.path, diff.path, diff.oldText ?? "", diff.newText, "", "", {
    context: 2,
  });
  const out: string[] = [];
  for (const hunk of patch.hunks) {
    out.push(
      theme.dim(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`),
    );
    for (const raw of hunk.lines) {
      if (raw.startsWith("\\")) continue;
      const line = safe(raw);
      if (line.startsWith("+")) out.push(theme.good(line));
      else if (line.startsWith("-")) out.push(theme.bad(line));
      else out.push(theme.dim(line));
    }
  }
  if (out.length <= maxLines) return out;
  const left = out.length - maxLines;
  return [...out.slice(0, maxLines), theme.dim(`… ${left} more diff line${left === 1 ? "" : "s"}`)];
}
