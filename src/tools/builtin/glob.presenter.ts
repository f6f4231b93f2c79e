// How `glob` calls are shown, from the recorded arguments alone: the schema the tool validates
// with (glob.ts) and its static presenter.
import * as z from "zod";
import { countListed, countOf, definePresenter, firstLine } from "../presentation.ts";

export const globSchema = z.object({ pattern: z.string().min(1), path: z.string().optional() });

export const globPresenter = definePresenter("glob", globSchema, {
  kind: "search",
  call: (args) => ({
    title: `glob ${args.pattern}${args.path ? ` in ${args.path}` : ""}`,
    locations: args.path ? [{ path: args.path }] : [],
  }),
  result: (_args, result) => ({
    summary: result.content.startsWith("No files")
      ? firstLine(result.content)
      : countOf(countListed(result.content), "file"),
  }),
});
