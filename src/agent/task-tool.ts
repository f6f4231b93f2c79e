// The `task` tool (docs/subagents.md): the model delegates a task to a subagent. Its source is
// the session's last one (compose-session.ts); each call runs one child session through the
// subagent host (subagents.ts), which returns the child's final answer, bounded by the output
// policy like any result, and names the child's log on `tool/result.child`.
import { TASK_TOOL, taskPresenter, taskSchema } from "../tools/builtin/task.presenter.ts";
import { defineTool } from "../tools/define-tool.ts";
import type { ToolSource } from "../tools/source.ts";
import { zodInput } from "../tools/tool-input.ts";
import type { SubagentHost } from "./subagents.ts";
import { taskDescription } from "./task.description.ts";

/** The description, with the custom agent types listed after it. */
function describe(host: SubagentHost): string {
  if (host.agents.length === 0) return taskDescription;
  const types = host.agents.map((agent) => `- ${agent.name}: ${agent.description}`);
  return `${taskDescription}\n\nAgent types for \`agent\` (absent: a general agent):\n${types.join("\n")}`;
}

/** The source of the one `task` tool, whose calls the host runs. */
export function taskToolSource(host: SubagentHost): ToolSource {
  const task = defineTool(
    {
      name: TASK_TOOL,
      description: describe(host),
      // Changes nothing itself: each of the child's calls is decided on its own.
      readOnly: true,
      concurrent: true,
      input: zodInput(taskSchema),
      execute: (args, ctx) => host.run(args, ctx),
    },
    taskPresenter,
  );
  return {
    name: "subagents",
    open: async () => ({ tools: () => [task], notices: [], dispose: async () => {} }),
  };
}
