// defineTool: the one wrapper every tool is made with. It fixes the tool's kind (declared by
// its presenter, or by the spec for a tool without one) and builds `run`, which executes the
// tool (a throw becomes an error result) and sends every result, raw text included, through the output policy (tool-output.ts).
// Arguments are validated by the toolbox with `input.check` before `run` is called.
import { errorMessage } from "../errors.ts";
import type { PresentedTool, ToolPresenter } from "./presentation.ts";
import { defaultSummary } from "./presentation.ts";
import { deliverResult } from "./tool-output.ts";
import type { ToolKind, ToolResult, ToolSpec, UnbrandedTool } from "./types.ts";

/**
 * A tool without a static presenter declares its kind itself and is shown plainly: its name as
 * the title, its kind, the default summary of its result.
 */
export function defineTool<Args>(spec: ToolSpec<Args> & { kind: ToolKind }): PresentedTool;
/** A tool shown by `presenter` (usually static, in presenters.ts) takes its kind from it. */
export function defineTool<Args>(spec: ToolSpec<Args>, presenter: ToolPresenter): PresentedTool;
export function defineTool<Args>(
  spec: ToolSpec<Args> & { kind?: ToolKind },
  presenter?: ToolPresenter,
): PresentedTool {
  const kind = presenter?.kind ?? spec.kind;
  if (!kind) throw new Error(`tool ${spec.name} declares no kind`);
  const shown = presenter ?? plainPresenter(spec.name, kind);
  const tool: UnbrandedTool & ToolPresenter = {
    name: spec.name,
    description: spec.description,
    kind,
    readOnly: spec.readOnly,
    input: spec.input,
    ...(spec.concurrent ? { concurrent: true } : {}),
    ...(spec.changes ? { changes: (args: unknown) => spec.changes?.(args as Args) } : {}),
    async run(args, ctx) {
      const result = await spec.execute(args as Args, ctx).catch(
        (error: unknown): ToolResult => ({
          content: `tool ${spec.name} failed: ${errorMessage(error)}`,
          isError: true,
        }),
      );
      return deliverResult(spec.name, result, ctx.output);
    },
    presentCall: shown.presentCall,
    presentResult: shown.presentResult,
  };
  // The one place a Tool is made: the brand is a type only.
  return tool as PresentedTool;
}

function plainPresenter(name: string, kind: ToolKind): ToolPresenter {
  return {
    kind,
    presentCall: () => ({ title: name, kind, locations: [] }),
    presentResult: (_args, result) => ({ summary: defaultSummary(result) }),
  };
}
