// The `ls` tool: the entries of one directory, sorted, directories marked with `/` and
// symlinks with `@`, control characters in names shown as escapes (`\x1b`); entries a
// permission rule covers are left out and counted (read-gate.ts); a huge directory is bounded
// by the output policy like any text.

import type { Dirent } from "node:fs";
import { join } from "node:path";
import { terminalSafeLine } from "../../runner/index.ts";
import { defineTool } from "../define-tool.ts";
import type { AnyPresentedTool } from "../presentation.ts";
import { zodInput } from "../tool-input.ts";
import type { BuiltinToolContext } from "./context.ts";
import { requireDirectory } from "./glob.ts";
import { lsDescription } from "./ls.description.ts";
import { lsPresenter, lsSchema } from "./ls.presenter.ts";
import { listInside } from "./open-inside.ts";
import type { ResolvedPath } from "./paths.ts";
import { resolveToolPath } from "./paths.ts";
import { policed } from "./policed.ts";
import { errnoCode, guarded, ToolProblem } from "./problem.ts";
import { readFilter, skippedNote } from "./read-gate.ts";

export function createLsTool(context: BuiltinToolContext): AnyPresentedTool {
  return defineTool(
    {
      name: "ls",
      description: lsDescription,
      input: zodInput(lsSchema),
      readOnly: true,
      execute: (args) =>
        guarded(async () => {
          const dir = resolveToolPath(context, args.path ?? ".", {
            allowSpill: true,
            readBy: "ls",
          });
          await requireDirectory(dir.absolute, dir.display);
          const readable = readFilter(context, "ls");
          const listed = await listEntries(dir);
          const entries = dir.inSpill
            ? listed
            : listed.filter((entry) => readable.passes(join(dir.absolute, entry.name)));
          const note = skippedNote(readable.skipped, "entry");
          if (entries.length === 0) {
            const empty = `(${dir.display} is empty)`;
            return { content: note ? `${empty}\n${note}` : empty };
          }
          const names = entries.map(entryName).sort();
          return policed(context, "ls", `${names.join("\n")}\n`, { trailer: note });
        }),
    },
    lsPresenter,
  );
}

/** The entries of the directory the check judged, never one a link swapped in since leads to. */
async function listEntries(dir: ResolvedPath): Promise<Dirent[]> {
  try {
    return await listInside(dir);
  } catch (error) {
    if (error instanceof ToolProblem) throw error;
    throw new ToolProblem(`Cannot list ${dir.display}: ${errnoCode(error) ?? String(error)}`);
  }
}

function entryName(entry: Dirent): string {
  const name = terminalSafeLine(entry.name);
  if (entry.isDirectory()) return `${name}/`;
  if (entry.isSymbolicLink()) return `${name}@`;
  return name;
}
