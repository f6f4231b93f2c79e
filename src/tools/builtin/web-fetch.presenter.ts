// How `web_fetch` calls are shown, from the recorded arguments alone: the schema the tool
// validates with (web-fetch.ts) and its static presenter. The title is the whole URL, so an
// ask shows exactly what would be fetched.
import * as z from "zod";
import { countOf, definePresenter } from "../presentation.ts";

export const WEB_FETCH_TOOL = "web_fetch";

export const webFetchSchema = z.object({
  url: z.string().describe("The http:// or https:// URL to fetch"),
  selector: z
    .string()
    .optional()
    .describe("A CSS selector: convert only the first element it matches"),
  question: z.string().optional().describe("What you want from the page"),
});

export const webFetchPresenter = definePresenter(WEB_FETCH_TOOL, webFetchSchema, {
  kind: "fetch",
  call: (args) => ({
    title: `web_fetch ${args.url}${args.selector ? ` (${args.selector})` : ""}${args.question ? `: ${args.question}` : ""}`,
    locations: [],
  }),
  result: (_args, result) => ({ summary: fetchedSummary(result.content) }),
});

/** How many lines of text came back (the first line names the URL; blank lines not counted). */
function fetchedSummary(content: string): string {
  const lines = content
    .split("\n")
    .slice(1)
    .filter((line) => line.trim() !== "").length;
  return `${countOf(lines, "line")} fetched`;
}
