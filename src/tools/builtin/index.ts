// The built-in tools, in the order the model sees them, made from one BuiltinToolContext.
// The agent calls createToolContext once per session, createBuiltinTools(context), and
// `context.background.dispose()` when the session ends.
import type { Tool } from "../types.ts";
import { createBashTool } from "./bash.ts";
import { createBashKillTool, createBashOutputTool } from "./bash-background.ts";
import type { BuiltinToolContext } from "./context.ts";
import { createEditTool } from "./edit.ts";
import { createGlobTool } from "./glob.ts";
import type { GrepToolOptions } from "./grep.ts";
import { createGrepTool } from "./grep.ts";
import { createLsTool } from "./ls.ts";
import { createReadTool } from "./read.ts";
import { createTodoWriteTool } from "./todo-write.ts";
import { createWebFetchTool } from "./web-fetch.ts";
import { createWriteTool } from "./write.ts";

export type { BackgroundManager } from "./background-manager.ts";
export { createBackgroundManager } from "./background-manager.ts";
export type {
  TerminalExit,
  TerminalHandle,
  TerminalHost,
  TerminalRequest,
} from "./bash-terminal.ts";
export type { BuiltinToolContext, ReadGate, ToolContextOptions } from "./context.ts";
export { createToolContext } from "./context.ts";
export type { FileAccess } from "./file-access.ts";
export { grepBackendFor } from "./grep.ts";
export { BUILTIN_SOURCE, builtinToolSource } from "./source.ts";
export type { Todo } from "./todo-write.ts";
export { TODO_WRITE_TOOL } from "./todo-write.ts";
export { createWebSearchTool } from "./web-search.ts";
export {
  createBashKillTool,
  createBashOutputTool,
  createBashTool,
  createEditTool,
  createGlobTool,
  createGrepTool,
  createLsTool,
  createReadTool,
  createTodoWriteTool,
  createWriteTool,
};

export interface BuiltinToolOptions {
  grep?: GrepToolOptions;
}

export function createBuiltinTools(
  context: BuiltinToolContext,
  options: BuiltinToolOptions = {},
): Tool[] {
  return [
    createBashTool(context),
    createBashOutputTool(context),
    createBashKillTool(context),
    createReadTool(context),
    createWriteTool(context),
    createEditTool(context),
    createGlobTool(context),
    createGrepTool(context, options.grep),
    createLsTool(context),
    createWebFetchTool(context),
    createTodoWriteTool(),
  ];
}
