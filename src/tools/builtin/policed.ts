// Turns a tool's own text, or a finished command, into a ToolResult through the output policy
// (bounds, redaction, spill), for tools that police their output themselves (a trailer after
// the bound, a streamed command): the result is marked, and defineTool's `run` keeps it as is.
import type { PolicyResult } from "../../runner/index.ts";
import { applyOutputPolicy } from "../../runner/index.ts";
import { markPoliced } from "../tool-output.ts";
import type { ToolResult } from "../types.ts";
import type { BuiltinToolContext } from "./context.ts";

export interface PolicedOptions {
  /** A line of ours appended after the policy (status, paging hints); never truncated. */
  trailer?: string;
  isError?: boolean;
}

/** Runs `text` through the policy of tool `name` and builds the result. */
export async function policed(
  context: BuiltinToolContext,
  name: string,
  text: string | Uint8Array,
  options: PolicedOptions = {},
): Promise<ToolResult> {
  const result = await applyOutputPolicy(text, context.policy(name), { spill: context.spill });
  return toToolResult(result, options);
}

/** What a result needs of the policy's work (a bounded log read has no line counts). */
export type PolicedText = Pick<
  PolicyResult,
  "output" | "originalBytes" | "truncated" | "spillPath" | "policyErrors"
>;

export function toToolResult(result: PolicedText, options: PolicedOptions = {}): ToolResult {
  const trailer = options.trailer ?? "";
  const separator = trailer && result.output && !result.output.endsWith("\n") ? "\n" : "";
  const content = `${result.output}${separator}${trailer}`;
  return markPoliced({
    content,
    ...(options.isError ? { isError: true } : {}),
    originalBytes: result.originalBytes,
    deliveredBytes: Buffer.byteLength(content, "utf8"),
    truncated: result.truncated,
    spillPath: result.spillPath,
    policyErrors: result.policyErrors,
  });
}
