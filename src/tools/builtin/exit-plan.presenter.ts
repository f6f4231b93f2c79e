// How `exit_plan` calls (plan mode's plan for the user's approval: docs/permissions.md, "Plan
// mode") are shown, from the recorded arguments alone: the schema the tool validates with
// (agent/exit-plan-tool.ts) and its static presenter.
import * as z from "zod";
import { terminalSafeLine } from "../../runner/escape-controls.ts";
import { definePresenter, firstLine } from "../presentation.ts";
import { cutLine } from "./line-cut.ts";

export const EXIT_PLAN_TOOL = "exit_plan";

export const exitPlanSchema = z.object({
  plan: z
    .string()
    .min(1)
    .describe(
      "The plan, Markdown: what you will change, where, in which order, and how you will check it",
    ),
});

export const exitPlanPresenter = definePresenter(EXIT_PLAN_TOOL, exitPlanSchema, {
  kind: "think",
  call: (args) => ({
    title: `plan: ${terminalSafeLine(cutLine(planTitle(args.plan), 100))}`,
    locations: [],
  }),
  result: (_args, result) => ({ summary: firstLine(result.content) }),
});

/** The plan's first line that says something, its Markdown heading marks left out. */
function planTitle(plan: string): string {
  const line = plan.split("\n").find((candidate) => candidate.trim() !== "") ?? "";
  return line.replace(/^\s*#+\s*/, "").trim();
}
