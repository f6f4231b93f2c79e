// defineTool: the one wrapper every tool is made with. It fixes the tool's kind (declared by
// its presenter, or by the spec for a tool without one) and builds `run`, which executes the
// tool (a throw becomes an error result) and sends every result, raw text included, through the output policy (tool-output.ts).
// Arguments are validated by the toolbox with `input.check` before `run` is called.
import { errorMessage } from "../errors.ts";
import type { PresentedTool, ToolPresenter } from "./presentation.ts";
import { deliverResult } from "./tool-output.ts";
import type { Tool, ToolKind, ToolResult, ToolSpec } from "./types.ts";

/** A tool without a presenter declares its kind itself. */
export function defineTool<Args>(spec: ToolSpec<Args> & { kind: ToolKind }): Tool;
/** A tool shown by `presenter` (usually static, in presenters.ts) takes its kind from it. */
export function defineTool<Args>(spec: ToolSpec<Args>, presenter: ToolPresenter): PresentedTool;
export function defineTool<Args>(
  spec: ToolSpec<Args> & { kind?: ToolKind },
  presenter?: ToolPresenter,
): Tool | PresentedTool {
  const kind = presenter?.kind ?? spec.kind;
  if (!kind) throw new Error(`tool ${spec.name} declares no kind`);
  const tool: Tool = {
    name: spec.name,
    description: spec.description,
    kind,
    readOnly: spec.readOnly,
    input: spec.input,
    async run(args, ctx) {
      const result = await spec.execute(args as Args, ctx).catch(
        (error: unknown): ToolResult => ({
          content: `tool ${spec.name} failed: ${errorMessage(error)}`,
          isError: true,
        }),
      );
      return deliverResult(spec.name, result, ctx.output);
    },
  };
  if (!presenter) return tool;
  return { ...tool, presentCall: presenter.presentCall, presentResult: presenter.presentResult };
}
