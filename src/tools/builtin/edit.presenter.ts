// How `edit` calls are shown, from the recorded arguments alone: the schema the tool validates
// with (edit.ts) and its static presenter, a diff of the replaced string.
import * as z from "zod";
import { definePresenter, firstLine } from "../presentation.ts";

export const editSchema = z.object({
  path: z.string(),
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});

export const editPresenter = definePresenter("edit", editSchema, {
  kind: "edit",
  call: (args) => ({ title: `edit ${args.path}`, locations: [{ path: args.path }] }),
  result: (args, result) => ({
    summary: firstLine(result.content),
    diff: { path: args.path, oldText: args.old_string, newText: args.new_string },
  }),
});
