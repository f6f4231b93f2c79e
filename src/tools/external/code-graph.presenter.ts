// How `code_graph` calls are shown, from the recorded arguments alone: the query schema the
// tool validates with (code-graph.ts) and its static presenter (tools/presenters.ts).
import * as z from "zod";
import { commandSummary } from "../builtin/bash.presenter.ts";
import { definePresenter } from "../presentation.ts";

export const CODE_GRAPH_TOOL = "code_graph";

export const codeGraphSchema = z.object({
  query: z.enum(["callers", "calls", "deps", "chain", "find"]),
  name: z.string().regex(/^[^-\s]/, { error: "must not start with - or a space" }),
  file: z.string().optional(),
  to: z
    .string()
    .regex(/^[^-\s]/)
    .optional(),
});

export const codeGraphPresenter = definePresenter(CODE_GRAPH_TOOL, codeGraphSchema, {
  kind: "search",
  call: (args) => ({
    title: `code graph: ${args.query} ${args.name}${args.to ? ` → ${args.to}` : ""}`,
    locations: args.file ? [{ path: args.file }] : [],
  }),
  result: (_args, result) => ({ summary: commandSummary(result) }),
});
