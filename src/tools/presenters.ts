// Presenters for surfaces that render a stored session without a live one (exports, replays):
// the built-in tools and code_graph made over an inert context, used only for presentCall and
// presentResult. Nothing here runs, writes or spawns.
import { createBuiltinTools, createToolContext } from "./builtin/index.ts";
import { createCodeGraphTool } from "./external/index.ts";
import type { AnyPresentedTool } from "./presentation.ts";
import { isPresentedTool } from "./presentation.ts";

const INERT_OUTPUT = { max_bytes: 30_000, spill_to_temp: false, redact_secrets: true };

/** The built-in tools by name, for presentToolCall/presentToolResult. */
export function builtinPresenters(): Map<string, AnyPresentedTool> {
  const context = createToolContext({ cwd: "/", output: INERT_OUTPUT, spill: null, env: {} });
  const tools = [...createBuiltinTools(context), createCodeGraphTool(context, { gcf: false })];
  return new Map(tools.filter(isPresentedTool).map((tool) => [tool.name, tool]));
}
