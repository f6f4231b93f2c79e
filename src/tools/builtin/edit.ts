// The `edit` tool: replaces an exact string in one file (once, or everywhere with replace_all)
// and reports the changed lines with their numbers; refuses helpfully when the string is
// missing or not unique. Shown as a diff of old_string → new_string.
import { readFile, writeFile } from "node:fs/promises";
import { z } from "zod";
import type { AnyPresentedTool } from "../presentation.ts";
import { definePresentedTool, firstLine } from "../presentation.ts";
import type { BuiltinToolContext } from "./context.ts";
import { editDescription } from "./edit.description.ts";
import type { EditPlan } from "./edit-match.ts";
import { planEdit } from "./edit-match.ts";
import { resolveToolPath } from "./paths.ts";
import { policed } from "./policed.ts";
import { errnoCode, guarded, ToolProblem } from "./problem.ts";
import { cutLine } from "./text-file.ts";

/** How many changed lines the result shows in all. */
const SHOWN_LINES = 40;

const schema = z.object({
  path: z.string(),
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});

export function createEditTool(context: BuiltinToolContext): AnyPresentedTool {
  return definePresentedTool(
    {
      name: "edit",
      description: editDescription,
      schema,
      readOnly: false,
      execute: (args) =>
        guarded(async () => {
          const path = resolveToolPath(context, args.path);
          const original = await readText(path.absolute, path.display);
          if (original.includes("\0")) {
            throw new ToolProblem(`${path.display} is a binary file; edit changes text files only`);
          }
          const outcome = planEdit(
            original,
            args.old_string,
            args.new_string,
            args.replace_all ?? false,
            path.display,
          );
          if (!outcome.ok) throw new ToolProblem(outcome.reason);
          await writeFile(path.absolute, outcome.plan.text, "utf8");
          return policed(context, "edit", report(path.display, outcome.plan));
        }),
    },
    {
      kind: "edit",
      call: (args) => ({ title: `edit ${args.path}`, locations: [{ path: args.path }] }),
      result: (args, result) => ({
        summary: firstLine(result.content),
        diff: { path: args.path, oldText: args.old_string, newText: args.new_string },
      }),
    },
  );
}

async function readText(absolute: string, display: string): Promise<string> {
  try {
    return await readFile(absolute, "utf8");
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOENT")
      throw new ToolProblem(`File not found: ${display} (use write to create a file)`);
    if (code === "EISDIR") throw new ToolProblem(`${display} is a directory`);
    throw new ToolProblem(`Cannot read ${display}: ${code ?? String(error)}`);
  }
}

/** "Edited a.ts: 1 replacement at line 12." and the changed lines, numbered. */
function report(display: string, plan: EditPlan): string {
  const where = plan.changed.map((change) => change.line);
  const noun = plan.count === 1 ? "replacement" : "replacements";
  const listed = where.slice(0, 20).join(", ") + (where.length > 20 ? ", …" : "");
  const at = where.length === 1 ? `line ${where[0]}` : `lines ${listed}`;
  const lines = plan.text.split("\n");
  const shown: string[] = [];
  for (const change of plan.changed) {
    for (let line = change.line; line < change.line + change.lines; line++) {
      if (shown.length >= SHOWN_LINES) break;
      const text = (lines[line - 1] ?? "").replace(/\r$/, "");
      shown.push(`${String(line).padStart(6)}\t${cutLine(text, 300)}`);
    }
  }
  return `Edited ${display}: ${plan.count} ${noun} at ${at}.\n${shown.join("\n")}\n`;
}
