// The `glob` tool: files whose path (relative to the search directory) matches a picomatch
// pattern, .gitignore respected (walk.ts), sorted, control characters in names shown as escapes
// (`\x1b`); files a permission rule covers are left out and counted (read-gate.ts); the list goes
// through the output policy.

import { stat } from "node:fs/promises";
import { relative } from "node:path";
import picomatch from "picomatch";
import { terminalSafeLine } from "../../runner/index.ts";
import { defineTool } from "../define-tool.ts";
import type { AnyPresentedTool } from "../presentation.ts";
import { zodInput } from "../tool-input.ts";
import type { BuiltinToolContext } from "./context.ts";
import { globDescription } from "./glob.description.ts";
import { globPresenter, globSchema } from "./glob.presenter.ts";
import { displayPath, resolveToolPath } from "./paths.ts";
import { policed } from "./policed.ts";
import { guarded, ToolProblem } from "./problem.ts";
import { readFilter, skippedNote } from "./read-gate.ts";
import { walkFiles } from "./walk.ts";

export function createGlobTool(context: BuiltinToolContext): AnyPresentedTool {
  return defineTool(
    {
      name: "glob",
      description: globDescription,
      input: zodInput(globSchema),
      readOnly: true,
      execute: (args, ctx) =>
        guarded(async () => {
          const base = resolveToolPath(context, args.path ?? ".", { readBy: "glob" });
          await requireDirectory(base.absolute, base.display);
          const matches = picomatch(args.pattern, { dot: true });
          const readable = readFilter(context, "glob");
          const found: string[] = [];
          const walk = walkFiles({
            root: context.cwd,
            start: base.absolute,
            signal: ctx.signal,
            // Only folders really inside: one swapped for a symlink mid-walk is not listed.
            realRoot: base.root,
          });
          for await (const file of walk) {
            const rel = relative(base.absolute, file).split("\\").join("/");
            if (!matches(rel) || !readable.passes(file)) continue;
            found.push(terminalSafeLine(displayPath(context.cwd, file)));
          }
          const note = skippedNote(readable.skipped);
          if (found.length === 0) {
            const none = `No files match ${terminalSafeLine(args.pattern)} in ${base.display}.`;
            return { content: note ? `${none}\n${note}` : none };
          }
          return policed(context, "glob", `${found.join("\n")}\n`, { trailer: note });
        }),
    },
    globPresenter,
  );
}

export async function requireDirectory(absolute: string, display: string): Promise<void> {
  const info = await stat(absolute).catch(() => null);
  if (!info) throw new ToolProblem(`Directory not found: ${display}`);
  if (!info.isDirectory()) throw new ToolProblem(`${display} is not a directory`);
}
