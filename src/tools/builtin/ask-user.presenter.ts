// How `ask_user` calls (a question for the user: docs/subagents.md, "Questions") are shown,
// from the recorded arguments alone: the schema the tool validates with (agent/ask-user-tool.ts)
// and its static presenter.
import * as z from "zod";
import { terminalSafeLine } from "../../runner/escape-controls.ts";
import { definePresenter, firstLine } from "../presentation.ts";
import { cutLine } from "./line-cut.ts";

export const ASK_USER_TOOL = "ask_user";

export const askUserSchema = z.object({
  question: z.string().min(1).describe("The question, one or two sentences"),
  options: z
    .array(z.string().min(1).max(200))
    .min(2)
    .max(6)
    .describe("2 to 6 short answers the user picks from"),
  free_text: z.boolean().optional().describe("True: the user may also type an answer of their own"),
});

export const askUserPresenter = definePresenter(ASK_USER_TOOL, askUserSchema, {
  kind: "think",
  call: (args) => ({
    title: `ask: ${terminalSafeLine(cutLine(args.question, 100))}`,
    locations: [],
  }),
  result: (_args, result) => ({ summary: firstLine(result.content) }),
});
