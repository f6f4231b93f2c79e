// How `todo_write` calls are shown, from the recorded arguments alone: the list's schema (the
// tool validates with it) and the static presenter.
import * as z from "zod";
import { terminalSafeLine } from "../../runner/escape-controls.ts";
import { countOf, definePresenter } from "../presentation.ts";
import { cutLine } from "./line-cut.ts";

export const TODO_WRITE_TOOL = "todo_write";

/** How much of the current item the result and the summary show. */
const SHOWN_CHARS = 80;

const todoSchema = z.object({
  content: z.string().min(1),
  status: z.enum(["pending", "in_progress", "completed"]),
});
export const todoWriteSchema = z.object({ todos: z.array(todoSchema) });

export type Todo = z.output<typeof todoSchema>;

export const todoWritePresenter = definePresenter(TODO_WRITE_TOOL, todoWriteSchema, {
  kind: "think",
  call: (args) => ({ title: `todo list (${countOf(args.todos.length, "item")})`, locations: [] }),
  result: (args) => ({ summary: todoSummary(args.todos) }),
});

function todoSummary(todos: readonly Todo[]): string {
  const done = todos.filter((todo) => todo.status === "completed").length;
  const current = currentItem(todos);
  return `${done}/${todos.length} done${current ? `; now: ${current}` : ""}`;
}

/** The first item in progress, on one line, cut, controls as escapes; or null. */
export function currentItem(todos: readonly Todo[]): string | null {
  const current = todos.find((todo) => todo.status === "in_progress");
  return current ? terminalSafeLine(cutLine(current.content, SHOWN_CHARS)) : null;
}
