// How `session_search` calls are shown, from the recorded arguments alone: the schema the tool
// (search/session-search-tool.ts, which needs the search index) validates with, and its
// static presenter.
import * as z from "zod";
import { definePresenter, firstLine } from "../presentation.ts";

export const SESSION_SEARCH_TOOL = "session_search";

export const sessionSearchSchema = z.object({
  query: z.string().min(1),
  limit: z.number().int().min(1).max(20).optional(),
});

export const sessionSearchPresenter = definePresenter(SESSION_SEARCH_TOOL, sessionSearchSchema, {
  kind: "read",
  call: (args) => ({ title: `search past sessions for ${args.query}`, locations: [] }),
  result: (_args, result) => ({ summary: firstLine(result.content) }),
});
