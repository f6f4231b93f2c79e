// The `todo_write` tool: the model writes its whole todo list; the tool answers with a short
// summary (counts and the current item, bounded and with visible escapes) and hands the list
// back on its result (`todos`), which the loop records as a `todo/update` event: the session
// log keeps the list.

import { defineTool } from "../define-tool.ts";
import type { AnyPresentedTool } from "../presentation.ts";
import { zodInput } from "../tool-input.ts";
import { todoWriteDescription } from "./todo-write.description.ts";
import {
  currentItem,
  TODO_WRITE_TOOL,
  type Todo,
  todoWritePresenter,
  todoWriteSchema,
} from "./todo-write.presenter.ts";

export { TODO_WRITE_TOOL, type Todo };

export function createTodoWriteTool(): AnyPresentedTool {
  return defineTool(
    {
      name: TODO_WRITE_TOOL,
      description: todoWriteDescription,
      input: zodInput(todoWriteSchema),
      readOnly: true,
      execute: async (args) => ({ content: todoResult(args.todos), todos: args.todos }),
    },
    todoWritePresenter,
  );
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
