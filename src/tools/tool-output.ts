// The output-policy stage of every tool result (called by defineTool's `run`): a result the
// tool built with the policy itself (builtin/policed.ts marks those, e.g. bash's streamed
// output) is delivered as is; anything else, raw text included, goes through the runner's
// pipeline now (strip, redact, bound, spill), so no tool can skip the policy.
import { applyOutputPolicy } from "../runner/index.ts";
import type { DeliveredResult, ToolOutputContext, ToolResult } from "./types.ts";

/** Results that already went through the output policy inside the tool. */
const policedByTool = new WeakSet<ToolResult>();

/** Marks a result built from the policy's own output (PolicyResult); returns it. */
export function markPoliced<T extends ToolResult>(result: T): T {
  policedByTool.add(result);
  return result;
}

/** The result the model receives from tool `name`. */
export async function deliverResult(
  name: string,
  result: ToolResult,
  output: ToolOutputContext,
): Promise<DeliveredResult> {
  if (policedByTool.has(result)) {
    const bytes = Buffer.byteLength(result.content);
    return {
      ...result,
      originalBytes: result.originalBytes ?? bytes,
      deliveredBytes: result.deliveredBytes ?? bytes,
      truncated: result.truncated ?? false,
      spillPath: result.spillPath ?? null,
      policyErrors: result.policyErrors ?? [],
      streamed: true,
    };
  }
  const policed = await applyOutputPolicy(result.content, output.policy(name), {
    spill: output.spill,
  });
  return {
    content: policed.output,
    ...(result.isError ? { isError: true } : {}),
    ...(result.images ? { images: result.images } : {}),
    ...(result.todos ? { todos: result.todos } : {}),
    ...(result.sandbox ? { sandbox: result.sandbox } : {}),
    ...(result.child ? { child: result.child } : {}),
    originalBytes: policed.originalBytes,
    deliveredBytes: policed.deliveredBytes,
    truncated: policed.truncated,
    spillPath: policed.spillPath,
    policyErrors: policed.policyErrors,
    streamed: false,
  };
}

/**
 * The result with codewhale's own text put before and after what the tool gave (a call's note,
 * a rule file's text): the delivered byte count grows by what was added, the original stays
 * the tool's.
 */
export function withAddedText<T extends ToolResult>(result: T, before: string, after: string): T {
  if (before === "" && after === "") return result;
  const added = Buffer.byteLength(before) + Buffer.byteLength(after);
  return {
    ...result,
    content: before + result.content + after,
    originalBytes: result.originalBytes ?? Buffer.byteLength(result.content),
    deliveredBytes: (result.deliveredBytes ?? Buffer.byteLength(result.content)) + added,
  };
}
