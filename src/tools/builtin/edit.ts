// The `edit` tool: replaces an exact string in one UTF-8 text file (once, or everywhere with
// replace_all) and reports the changed lines with their numbers; refuses helpfully when the
// string is missing or not unique, or the file is binary, not UTF-8 or not a regular file.
// With a surface's file access (an editor's buffers, file-access.ts) it edits the editor's text.
import { isUtf8 } from "node:buffer";
import { constants } from "node:fs";
import { resolve } from "node:path";
import { defineTool } from "../define-tool.ts";
import type { AnyPresentedTool } from "../presentation.ts";
import { zodInput } from "../tool-input.ts";
import type { BuiltinToolContext } from "./context.ts";
import { editDescription } from "./edit.description.ts";
import { editPresenter, editSchema } from "./edit.presenter.ts";
import type { EditPlan } from "./edit-match.ts";
import { planEdit } from "./edit-match.ts";
import { type FileAccess, surfaceText, surfaceWrite } from "./file-access.ts";
import type { ResolvedPath } from "./paths.ts";
import { resolveToolPath } from "./paths.ts";
import { policed } from "./policed.ts";
import { errnoCode, guarded, ToolProblem } from "./problem.ts";
import { cutLine, notRegular, openRegular, statOrNull, writeRegularFile } from "./text-file.ts";

/** How many changed lines the result shows in all. */
const SHOWN_LINES = 40;

export function createEditTool(context: BuiltinToolContext): AnyPresentedTool {
  return defineTool(
    {
      name: "edit",
      description: editDescription,
      input: zodInput(editSchema),
      readOnly: false,
      changes: (args) => [resolve(context.cwd, args.path)],
      execute: (args, ctx) =>
        guarded(async () => {
          // edit reads the file (its old_string and the lines it shows): a read rule covers it.
          const path = resolveToolPath(context, args.path, { readBy: "edit" });
          const { absolute, display } = path;
          const original = await readText(path, context.files, ctx.signal);
          const outcome = planEdit(
            original,
            args.old_string,
            args.new_string,
            args.replace_all ?? false,
            path.display,
          );
          if (!outcome.ok) throw new ToolProblem(outcome.reason);
          const text = outcome.plan.text;
          if (!(await surfaceWrite(context.files, absolute, display, text, ctx.signal))) {
            await writeRegularFile(path, text);
          }
          return policed(context, "edit", report(path.display, outcome.plan));
        }),
    },
    editPresenter,
  );
}

/** The file's text; refused unless it is a regular file of valid UTF-8 without NUL bytes. */
async function readText(
  path: ResolvedPath,
  files: FileAccess,
  signal: AbortSignal,
): Promise<string> {
  const { absolute, display } = path;
  const info = await statOrNull(absolute, display);
  if (!info) throw new ToolProblem(`File not found: ${display} (use write to create a file)`);
  if (info.isDirectory()) throw new ToolProblem(`${display} is a directory`);
  if (!info.isFile()) throw notRegular(display, info);
  const text = await surfaceText(files, absolute, display, signal);
  if (text !== undefined) return text;
  const bytes = await readBytes(path);
  if (bytes.includes(0)) {
    throw new ToolProblem(`${display} is a binary file; edit changes text files only`);
  }
  if (!isUtf8(bytes)) {
    throw new ToolProblem(
      `${display} is not valid UTF-8, so edit left it unchanged (it would replace the invalid ` +
        "bytes); convert it first (e.g. iconv in bash) or rewrite it whole with write",
    );
  }
  try {
    return bytes.toString("utf8");
  } catch {
    throw new ToolProblem(`${display} is too large to edit (${bytes.length} bytes)`);
  }
}

async function readBytes(path: ResolvedPath): Promise<Buffer> {
  const { display } = path;
  const handle = await openRegular(path, constants.O_RDONLY);
  try {
    return await handle.readFile();
  } catch (error) {
    throw new ToolProblem(`Cannot read ${display}: ${errnoCode(error) ?? String(error)}`);
  } finally {
    await handle.close();
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
