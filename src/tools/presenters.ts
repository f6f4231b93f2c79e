// The static presenters of the built-in tools and code_graph, keyed by tool name: how a stored
// `tool/call` and its `tool/result` are shown from the log alone, for every surface
// (present/tool-presentations.ts). Imports only the *.presenter.ts files: nothing here makes a
// tool, a context or a background manager, runs or spawns.
import { ASK_USER_TOOL, askUserPresenter } from "./builtin/ask-user.presenter.ts";
import { bashKillPresenter, bashOutputPresenter, bashPresenter } from "./builtin/bash.presenter.ts";
import { editPresenter } from "./builtin/edit.presenter.ts";
import { EXIT_PLAN_TOOL, exitPlanPresenter } from "./builtin/exit-plan.presenter.ts";
import { globPresenter } from "./builtin/glob.presenter.ts";
import { grepPresenter } from "./builtin/grep.presenter.ts";
import { lsPresenter } from "./builtin/ls.presenter.ts";
import { readPresenter } from "./builtin/read.presenter.ts";
import { SESSION_SEARCH_TOOL, sessionSearchPresenter } from "./builtin/session-search.presenter.ts";
import { TASK_TOOL, taskPresenter } from "./builtin/task.presenter.ts";
import { TODO_WRITE_TOOL, todoWritePresenter } from "./builtin/todo-write.presenter.ts";
import { WEB_FETCH_TOOL, webFetchPresenter } from "./builtin/web-fetch.presenter.ts";
import { WEB_SEARCH_TOOL, webSearchPresenter } from "./builtin/web-search.presenter.ts";
import { writePresenter } from "./builtin/write.presenter.ts";
import { CODE_GRAPH_TOOL, codeGraphPresenter } from "./external/code-graph.presenter.ts";
import type { ToolPresenter } from "./presentation.ts";

/** In the order the model sees the built-in tools, then code_graph, task, ask_user, exit_plan, web_search. */
const BUILTIN: ReadonlyMap<string, ToolPresenter> = new Map([
  ["bash", bashPresenter],
  ["bash_output", bashOutputPresenter],
  ["bash_kill", bashKillPresenter],
  ["read", readPresenter],
  ["write", writePresenter],
  ["edit", editPresenter],
  ["glob", globPresenter],
  ["grep", grepPresenter],
  ["ls", lsPresenter],
  [WEB_FETCH_TOOL, webFetchPresenter],
  [TODO_WRITE_TOOL, todoWritePresenter],
  [CODE_GRAPH_TOOL, codeGraphPresenter],
  // The agent's own tools: made by the agent (agent/task-tool.ts, ask-user-tool.ts, …), shown here.
  [TASK_TOOL, taskPresenter],
  [ASK_USER_TOOL, askUserPresenter],
  [EXIT_PLAN_TOOL, exitPlanPresenter],
  // The backend web_search (agent/web-search-source.ts, when [web.search] searxng_url is set).
  [WEB_SEARCH_TOOL, webSearchPresenter],
  // The index over past sessions (search/session-search-tool.ts, unless [search] scope = "off").
  [SESSION_SEARCH_TOOL, sessionSearchPresenter],
]);

/** The names that have a static presenter. */
export function builtinPresenterNames(): string[] {
  return [...BUILTIN.keys()];
}

/** The static presenter of a built-in tool, or undefined for any other name. */
export function builtinPresenter(name: string): ToolPresenter | undefined {
  return BUILTIN.get(name);
}
