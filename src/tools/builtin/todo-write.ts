// The `todo_write` tool: the model writes its whole todo list; the tool returns it rendered.
// The agent loop records the list as a `todo/update` event (todosFromCall) after a successful
// call: the session log, not this tool, keeps the list.
import { z } from "zod";
import type { AnyPresentedTool } from "../presentation.ts";
import { definePresentedTool } from "../presentation.ts";
import { todoWriteDescription } from "./todo-write.description.ts";

export const TODO_WRITE_TOOL = "todo_write";

const todoSchema = z.object({
  content: z.string().min(1),
  status: z.enum(["pending", "in_progress", "completed"]),
});
const schema = z.object({ todos: z.array(todoSchema) });

export type Todo = z.output<typeof todoSchema>;

const MARKS: Record<Todo["status"], string> = {
  pending: "[ ]",
  in_progress: "[>]",
  completed: "[x]",
};

export function createTodoWriteTool(): AnyPresentedTool {
  return definePresentedTool(
    {
      name: TODO_WRITE_TOOL,
      description: todoWriteDescription,
      schema,
      readOnly: true,
      execute: async (args) => ({ content: renderTodos(args.todos) }),
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

export function renderTodos(todos: readonly Todo[]): string {
  if (todos.length === 0) return "Todo list cleared.";
  return `${todos.map((todo) => `${MARKS[todo.status]} ${todo.content}`).join("\n")}\n`;
}

function todoSummary(todos: readonly Todo[]): string {
  const done = todos.filter((todo) => todo.status === "completed").length;
  const current = todos.find((todo) => todo.status === "in_progress");
  return `${done}/${todos.length} done${current ? `; now: ${current.content}` : ""}`;
}
