// The built-in tools as a ToolSource (tools/source.ts): the first source of every session, so
// a built-in keeps its name when another source offers a tool of the same name. Its tools
// use the session's shared context, which the session disposes (background processes, spill).
import type { ToolSource } from "../source.ts";
import { type BuiltinToolOptions, createBuiltinTools } from "./index.ts";

export const BUILTIN_SOURCE = "builtin";

export function builtinToolSource(options: BuiltinToolOptions = {}): ToolSource {
  return {
    name: BUILTIN_SOURCE,
    async open(context) {
      const tools = createBuiltinTools(context.workspace, options);
      return { tools: () => tools, notices: [], dispose: async () => {} };
    },
  };
}
