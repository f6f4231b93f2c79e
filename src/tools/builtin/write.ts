// The `write` tool: creates or overwrites one file inside the workspace, making parent
// directories; reports whether it created or replaced the file. Shown as a diff.
import { mkdir, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import type { AnyPresentedTool } from "../presentation.ts";
import { countLines, definePresentedTool, firstLine } from "../presentation.ts";
import type { BuiltinToolContext } from "./context.ts";
import { resolveToolPath } from "./paths.ts";
import { errnoCode, guarded, ToolProblem } from "./problem.ts";
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
          const existed = await existingKind(path.absolute);
          if (existed === "directory") throw new ToolProblem(`${path.display} is a directory`);
          await mkdir(dirname(path.absolute), { recursive: true });
          await writeFile(path.absolute, args.content, "utf8");
          const verb = existed === "file" ? "Overwrote" : "Created";
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

async function existingKind(path: string): Promise<"file" | "directory" | null> {
  try {
    return (await stat(path)).isDirectory() ? "directory" : "file";
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return null;
    throw error;
  }
}
