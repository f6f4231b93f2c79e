// How `write` calls are shown, from the recorded arguments alone: the schema the tool validates
// with (write.ts) and its static presenter, a diff from nothing to the new text.
import * as z from "zod";
import { definePresenter, firstLine } from "../presentation.ts";

export const writeSchema = z.object({ path: z.string(), content: z.string() });

export const writePresenter = definePresenter("write", writeSchema, {
  kind: "edit",
  call: (args) => ({ title: `write ${args.path}`, locations: [{ path: args.path }] }),
  result: (args, result) => ({
    summary: firstLine(result.content),
    // The log does not keep the old text of an overwritten file.
    diff: { path: args.path, oldText: null, newText: args.content },
  }),
});
