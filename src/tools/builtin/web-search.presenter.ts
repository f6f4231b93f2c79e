// How backend `web_search` calls are shown, from the recorded arguments alone: the schema the
// tool validates with (web-search.ts) and its static presenter. Kind `search`: it searches for
// information and changes nothing (docs/permissions.md).
import * as z from "zod";
import { countOf, definePresenter } from "../presentation.ts";

export const WEB_SEARCH_TOOL = "web_search";

export const webSearchSchema = z.object({
  query: z.string().min(1).describe("What to search the web for"),
});

export const webSearchPresenter = definePresenter(WEB_SEARCH_TOOL, webSearchSchema, {
  kind: "search",
  call: (args) => ({ title: `web_search ${JSON.stringify(args.query)}`, locations: [] }),
  result: (_args, result) => ({
    summary: result.isError
      ? "failed"
      : `${countOf(result.content.match(/^\d+\. /gm)?.length ?? 0, "result")}`,
  }),
});
