// How `grep` calls are shown, from the recorded arguments alone: the schema the tool validates
// with (grep.ts) and its static presenter, summarised by the hits' count line.
import * as z from "zod";
import { definePresenter, firstLine } from "../presentation.ts";

export const grepSchema = z.object({
  pattern: z.string().min(1),
  path: z.string().optional(),
  glob: z.string().optional(),
  ignore_case: z.boolean().optional(),
  files_only: z.boolean().optional(),
});

export const grepPresenter = definePresenter("grep", grepSchema, {
  kind: "search",
  call: (args) => ({
    title: `grep ${JSON.stringify(args.pattern)}${args.path ? ` in ${args.path}` : ""}`,
    locations: args.path ? [{ path: args.path }] : [],
  }),
  result: (_args, result) => ({ summary: grepSummary(result.content) }),
});

/** The count line ("(3 matches in 2 files)", "(more than 10000 matches; …)") or the first line. */
function grepSummary(content: string): string {
  const lines = content.trimEnd().split("\n");
  const last = lines[lines.length - 1] ?? "";
  return /^\((more than )?\d+ (match|file)/.test(last) ? last.slice(1, -1) : firstLine(content);
}
