// The `write` tool: creates or overwrites one regular file inside the workspace (never through
// a symlink leading out, never a FIFO or device), making parent directories; reports whether it
// created or replaced the file. Shown as a diff. With a surface's file access (an editor,
// file-access.ts) the editor writes the text, after the same checks.
import { resolve } from "node:path";
import { defineTool } from "../define-tool.ts";
import type { AnyPresentedTool } from "../presentation.ts";
import { countLines } from "../presentation.ts";
import { zodInput } from "../tool-input.ts";
import type { BuiltinToolContext } from "./context.ts";
import { surfaceWrite } from "./file-access.ts";
import { resolveToolPath } from "./paths.ts";
import { guarded, ToolProblem } from "./problem.ts";
import { notRegular, statOrNull, writeRegularFile } from "./text-file.ts";
import { writeDescription } from "./write.description.ts";
import { writePresenter, writeSchema } from "./write.presenter.ts";

export function createWriteTool(context: BuiltinToolContext): AnyPresentedTool {
  return defineTool(
    {
      name: "write",
      description: writeDescription,
      input: zodInput(writeSchema),
      readOnly: false,
      changes: (args) => [resolve(context.cwd, args.path)],
      execute: (args, ctx) =>
        guarded(async () => {
          const path = resolveToolPath(context, args.path);
          const existing = await statOrNull(path.absolute, path.display);
          if (existing?.isDirectory()) throw new ToolProblem(`${path.display} is a directory`);
          if (existing && !existing.isFile()) throw notRegular(path.display, existing);
          const { absolute, display } = path;
          if (!(await surfaceWrite(context.files, absolute, display, args.content, ctx.signal))) {
            await writeRegularFile(path, args.content, { makeParents: true });
          }
          const verb = existing ? "Overwrote" : "Created";
          const lines = countLines(args.content);
          const size = `${lines} line${lines === 1 ? "" : "s"}, ${Buffer.byteLength(args.content)} bytes`;
          return { content: `${verb} ${path.display} (${size}).` };
        }),
    },
    writePresenter,
  );
}
