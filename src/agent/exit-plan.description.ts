// The model-facing description of the `exit_plan` tool (sent with every request in plan mode:
// keep it short).
export const exitPlanDescription =
  "Plan mode is on: only read-only tools run. Research the task, then call this with your plan as Markdown (what you will change, where, in which order, how you will check it) for the user to approve. Approved: the result says so and edits are allowed from your next call; carry the plan out. Otherwise the result carries the user's feedback: revise the plan and call this again. Use it only to present a plan for work that changes things, not to answer a question.";
