// The `todo_write` tool: the model writes its whole todo list; the tool answers with a short
// summary (counts and the current item, bounded and with visible escapes). The agent loop
// records the list as a `todo/update` event (todosFromCall): the session log keeps the list.

import { z } from "zod";
import { escapeAllControls } from "../../runner/index.ts";
import type { AnyPresentedTool } from "../presentation.ts";
import { definePresentedTool } from "../presentation.ts";

import { cutLine } from "./text-file.ts";
import { todoWriteDescription } from "./todo-write.description.ts";

export const TODO_WRITE_TOOL = "todo_write";

/** How much of the current item the result and the summary show. */
const SHOWN_CHARS = 80;

const todoSchema = z.object({
  content: z.string().min(1),
  status: z.enum(["pending", "in_progress", "completed"]),
});
const schema = z.object({ todos: z.array(todoSchema) });

export type Todo = z.output<typeof todoSchema>;

export function createTodoWriteTool(): AnyPresentedTool {
  return definePresentedTool(
    {
      name: TODO_WRITE_TOOL,
      description: todoWriteDescription,
      schema,
      readOnly: true,
      execute: async (args) => ({ content: todoResult(args.todos) }),
    },
    {
      kind: "think",
      call: (args) => ({ title: `todo list (${args.todos.length} items)`, locations: [] }),
      result: (args) => ({ summary: todoSummary(args.todos) }),
    },
  );
}

/** The todo list of a recorded `todo_write` call (for `todo/update`), or null if it is not one. */
export function todosFromCall(name: string, args: unknown): Todo[] | null {
  if (name !== TODO_WRITE_TOOL) return null;
  const parsed = schema.safeParse(args);
  return parsed.success ? parsed.data.todos : null;
}

/** "Todo list updated: 3 items (1 completed, 1 in progress, 1 pending). Now: fix the bug" */
export function todoResult(todos: readonly Todo[]): string {
  if (todos.length === 0) return "Todo list cleared.";
  const count = (status: Todo["status"]) => todos.filter((todo) => todo.status === status).length;
  const items = `${todos.length} item${todos.length === 1 ? "" : "s"}`;
  const counts = `${count("completed")} completed, ${count("in_progress")} in progress, ${count("pending")} pending`;
  const current = currentItem(todos);
  return `Todo list updated: ${items} (${counts}).${current ? ` Now: ${current}` : ""}`;
}

function todoSummary(todos: readonly Todo[]): string {
  const done = todos.filter((todo) => todo.status === "completed").length;
  const current = currentItem(todos);
  return `${done}/${todos.length} done${current ? `; now: ${current}` : ""}`;
}

/** The first item in progress, on one line, cut, controls as escapes; or null. */
function currentItem(todos: readonly Todo[]): string | null {
  const current = todos.find((todo) => todo.status === "in_progress");
  return current ? escapeAllControls(cutLine(current.content, SHOWN_CHARS)) : null;
}
