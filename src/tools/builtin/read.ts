// The `read` tool: a text file with line numbers, paged by `offset`/`limit`, over-long lines
// cut, binary files refused; the session's spill files are readable too. The text goes
// through the read tool's output policy (bounds, redaction, spill).
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { z } from "zod";
import type { AnyPresentedTool } from "../presentation.ts";
import { definePresentedTool, firstLine } from "../presentation.ts";
import type { BuiltinToolContext } from "./context.ts";
import { resolveToolPath } from "./paths.ts";
import { policed } from "./policed.ts";
import { errnoCode, guarded, ToolProblem } from "./problem.ts";
import { readDescription } from "./read.description.ts";
import { cutLine, fileLooksBinary } from "./text-file.ts";

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_LINE_CHARS = 2000;

const schema = z.object({
  path: z.string(),
  offset: z.number().int().positive().optional(),
  limit: z.number().int().positive().optional(),
});

export function createReadTool(context: BuiltinToolContext): AnyPresentedTool {
  return definePresentedTool(
    {
      name: "read",
      description: readDescription,
      schema,
      readOnly: true,
      execute: (args) =>
        guarded(async () => {
          const path = resolveToolPath(context, args.path, { allowSpill: true });
          await checkReadable(path.absolute, path.display);
          const offset = args.offset ?? 1;
          const page = await readPage(path.absolute, offset, args.limit ?? READ_DEFAULT_LIMIT);
          if (page.total === 0) return { content: `(${path.display} is empty)` };
          if (page.lines.length === 0) {
            throw new ToolProblem(
              `offset ${offset} is past the end of ${path.display} (${page.total} lines)`,
            );
          }
          const last = offset + page.lines.length - 1;
          const more =
            last < page.total
              ? `[lines ${offset}-${last} of ${page.total}; use offset=${last + 1} to read on]`
              : "";
          return policed(context, "read", numbered(page.lines, offset), { trailer: more });
        }),
    },
    {
      kind: "read",
      call: (args) => ({
        title: `read ${args.path}${args.offset ? `:${args.offset}` : ""}`,
        locations: [{ path: args.path, ...(args.offset ? { line: args.offset } : {}) }],
      }),
      result: (args, result) => ({
        summary: result.content.startsWith("(")
          ? firstLine(result.content)
          : `${countNumberedLines(result.content)} lines of ${args.path}`,
      }),
    },
  );
}

async function checkReadable(absolute: string, display: string): Promise<void> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(absolute);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") {
      throw new ToolProblem(`File not found: ${display} (use glob or ls to find the right path)`);
    }
    throw new ToolProblem(`Cannot read ${display}: ${errnoCode(error) ?? String(error)}`);
  }
  if (info.isDirectory()) throw new ToolProblem(`${display} is a directory; use ls to list it`);
  if (await fileLooksBinary(absolute)) {
    throw new ToolProblem(
      `${display} is a binary file (${info.size} bytes); read shows text files only`,
    );
  }
}

interface Page {
  lines: string[];
  total: number;
}

/** Streams the file: keeps lines [offset, offset + limit), counts them all. */
async function readPage(absolute: string, offset: number, limit: number): Promise<Page> {
  const lines: string[] = [];
  let total = 0;
  const input = createReadStream(absolute, { encoding: "utf8" });
  const reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of reader) {
    total += 1;
    if (total >= offset && lines.length < limit) lines.push(cutLine(line, READ_MAX_LINE_CHARS));
  }
  return { lines, total };
}

function numbered(lines: readonly string[], offset: number): string {
  return `${lines.map((line, index) => `${String(offset + index).padStart(6)}\t${line}`).join("\n")}\n`;
}

function countNumberedLines(content: string): number {
  return content.split("\n").filter((line) => /^ *\d+\t/.test(line)).length;
}
