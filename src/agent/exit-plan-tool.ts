// The `exit_plan` tool: in plan mode the model hands its plan (Markdown) to the session's plan
// desk (plans.ts) and reads the user's decision as the call's result. Offered only while the
// session is in plan mode: `modeChanged` has the toolbox read the list again at the next turn
// boundary. Its source comes after the session's others (compose-session.ts).
import {
  EXIT_PLAN_TOOL,
  exitPlanPresenter,
  exitPlanSchema,
} from "../tools/builtin/exit-plan.presenter.ts";
import { defineTool } from "../tools/define-tool.ts";
import { presentToolCall } from "../tools/presentation.ts";
import type { ToolSource } from "../tools/source.ts";
import { zodInput } from "../tools/tool-input.ts";
import { exitPlanDescription } from "./exit-plan.description.ts";
import type { PlanDesk, PlanOutcome } from "./plans.ts";

export interface PlanToolSource {
  source: ToolSource;
  /** The permission mode changed: the tool is offered, or not, from the next turn. */
  modeChanged(): void;
}

/** The source of the one `exit_plan` tool; `turn` says which turn runs now. */
export function exitPlanToolSource(desk: PlanDesk, turn: () => number): PlanToolSource {
  let listChanged = () => {};
  const tool = defineTool(
    {
      name: EXIT_PLAN_TOOL,
      description: exitPlanDescription,
      // Proposing changes nothing: the plan itself needs no approval to be shown.
      readOnly: true,
      input: zodInput(exitPlanSchema),
      async execute(args, ctx) {
        // Offered for the rest of a turn whose plan was approved: nothing to approve then.
        if (!desk.planning) {
          return { content: "Plan mode is off already: carry out the approved plan." };
        }
        const outcome = await desk.propose({
          callId: ctx.callId,
          turn: turn(),
          plan: args.plan,
          arguments: args,
          presentation: presentToolCall(exitPlanPresenter, EXIT_PLAN_TOOL, args),
          signal: ctx.signal,
        });
        return resultOf(outcome);
      },
    },
    exitPlanPresenter,
  );
  return {
    source: {
      name: "plans",
      open: async (context) => {
        listChanged = () => context.listChanged();
        return {
          tools: () => (desk.planning ? [tool] : []),
          notices: [],
          dispose: async () => {},
        };
      },
    },
    modeChanged: () => listChanged(),
  };
}

/** What the model reads of the decision. */
function resultOf(outcome: PlanOutcome): { content: string; isError?: boolean } {
  if (outcome.approved) {
    const mode =
      outcome.mode === "accept-edits"
        ? "accept-edits (edits run without asking)"
        : "default (edits and commands ask first)";
    return {
      content: `The user approved the plan. Plan mode is off; the permission mode is now ${mode}. Carry out the plan.`,
    };
  }
  if (outcome.by === "default") return { content: `Not approved: ${outcome.reason}` };
  const feedback = outcome.feedback
    ? `The user's feedback:\n${outcome.feedback}`
    : "The user gave no feedback: ask what to change, or revise the plan.";
  return {
    content: `The user did not approve the plan and wants you to keep planning (plan mode stays on). ${feedback}`,
  };
}
