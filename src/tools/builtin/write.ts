// The `write` tool: creates or overwrites one regular file inside the workspace (never through
// a symlink leading out, never a FIFO or device), making parent directories; reports whether it
// created or replaced the file. Shown as a diff.
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import type { AnyPresentedTool } from "../presentation.ts";
import { countLines, definePresentedTool, firstLine } from "../presentation.ts";
import type { BuiltinToolContext } from "./context.ts";
import { resolveToolPath } from "./paths.ts";
import { errnoCode, guarded, ToolProblem } from "./problem.ts";
import { notRegular, statOrNull, writeRegularFile } from "./text-file.ts";
import { writeDescription } from "./write.description.ts";

const schema = z.object({ path: z.string(), content: z.string() });

export function createWriteTool(context: BuiltinToolContext): AnyPresentedTool {
  return definePresentedTool(
    {
      name: "write",
      description: writeDescription,
      schema,
      readOnly: false,
      execute: (args) =>
        guarded(async () => {
          const path = resolveToolPath(context, args.path);
          const existing = await statOrNull(path.absolute, path.display);
          if (existing?.isDirectory()) throw new ToolProblem(`${path.display} is a directory`);
          if (existing && !existing.isFile()) throw notRegular(path.display, existing);
          await makeParents(path.absolute, path.display);
          await writeRegularFile(path.absolute, path.display, args.content);
          const verb = existing ? "Overwrote" : "Created";
          const lines = countLines(args.content);
          const size = `${lines} line${lines === 1 ? "" : "s"}, ${Buffer.byteLength(args.content)} bytes`;
          return { content: `${verb} ${path.display} (${size}).` };
        }),
    },
    {
      kind: "edit",
      call: (args) => ({ title: `write ${args.path}`, locations: [{ path: args.path }] }),
      result: (args, result) => ({
        summary: firstLine(result.content),
        // The log does not keep the old text of an overwritten file.
        diff: { path: args.path, oldText: null, newText: args.content },
      }),
    },
  );
}

async function makeParents(absolute: string, display: string): Promise<void> {
  try {
    await mkdir(dirname(absolute), { recursive: true });
  } catch (error) {
    throw new ToolProblem(
      `Cannot create the directory of ${display}: ${errnoCode(error) ?? String(error)}`,
    );
  }
}
