// How `task` calls (a subagent: docs/subagents.md) are shown, from the recorded arguments
// alone: the schema the tool validates with (agent/task-tool.ts) and its static presenter.
import * as z from "zod";
import { terminalSafeLine } from "../../runner/escape-controls.ts";
import { definePresenter, firstLine } from "../presentation.ts";
import { cutLine } from "./line-cut.ts";

export const TASK_TOOL = "task";

export const taskSchema = z.object({
  description: z.string().min(1).describe("A short (3-5 word) name for the task"),
  prompt: z.string().min(1).describe("The whole task for the subagent: it sees nothing else"),
  agent: z.string().min(1).optional().describe("The agent type to run (see the list above)"),
});

export const taskPresenter = definePresenter(TASK_TOOL, taskSchema, {
  kind: "think",
  call: (args) => ({
    title: `task${args.agent ? ` (${terminalSafeLine(args.agent)})` : ""}: ${terminalSafeLine(cutLine(args.description, 80))}`,
    locations: [],
  }),
  result: (_args, result) => ({ summary: firstLine(result.content) }),
});
