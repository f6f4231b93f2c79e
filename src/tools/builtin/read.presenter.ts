// How `read` calls are shown, from the recorded arguments alone: the schema the tool validates
// with (read.ts) and its static presenter (tools/presenters.ts keys it by name).
import * as z from "zod";
import { countOf, definePresenter, firstLine } from "../presentation.ts";

export const readSchema = z.object({
  path: z.string(),
  offset: z.number().int().positive().optional(),
  limit: z.number().int().positive().optional(),
});

export const readPresenter = definePresenter("read", readSchema, {
  kind: "read",
  call: (args) => ({
    title: `read ${args.path}${args.offset ? `:${args.offset}` : ""}`,
    locations: [{ path: args.path, ...(args.offset ? { line: args.offset } : {}) }],
  }),
  result: (args, result) => ({
    summary: result.content.startsWith("(")
      ? firstLine(result.content)
      : `${countOf(countNumberedLines(result.content), "line")} of ${args.path}`,
  }),
});

function countNumberedLines(content: string): number {
  return content.split("\n").filter((line) => /^ *\d+\t/.test(line)).length;
}
