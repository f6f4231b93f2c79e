// How `ls` calls are shown, from the recorded arguments alone: the schema the tool validates
// with (ls.ts) and its static presenter.
import * as z from "zod";
import { countListed, countOf, definePresenter, firstLine } from "../presentation.ts";

export const lsSchema = z.object({ path: z.string().optional() });

export const lsPresenter = definePresenter("ls", lsSchema, {
  kind: "read",
  call: (args) => ({
    title: `ls ${args.path ?? "."}`,
    locations: [{ path: args.path ?? "." }],
  }),
  result: (_args, result) => ({
    summary: result.content.startsWith("(")
      ? firstLine(result.content)
      : countOf(countListed(result.content), "entry", "entries"),
  }),
});
