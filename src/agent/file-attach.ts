// A file a custom slash command names with `@path`, attached for the next turn: read by the
// session's own `read` tool (its read deny rules, its size limits and the output policy: what
// the model would get), and only when the permission rules would let the model read it without
// asking; recorded by agent.ts as a `context/note` from `user:attach` (`@path`, then the text).
import { evaluatePermission } from "../permissions/index.ts";
import type { RunContext } from "./run-context.ts";

export type FileAttach = { ok: true; note: string } | { ok: false; reason: string };

export async function readAttachedFile(
  ctx: RunContext,
  path: string,
  signal: AbortSignal,
): Promise<FileAttach> {
  const prepared = ctx.tools.prepare("read", JSON.stringify({ path }));
  if (!prepared.ok) return { ok: false, reason: prepared.reason };
  const { tool, args, parsed } = prepared;
  const traits = { readOnly: tool.readOnly, kind: tool.kind };
  const call = { name: "read", arguments: args, tool: traits };
  const decision = evaluatePermission(call, ctx.guard.permissions, ctx.guard.context);
  if (decision.outcome !== "allow") {
    const verdict = decision.outcome === "ask" ? "would ask" : "is denied";
    return { ok: false, reason: `reading it ${verdict} (${decision.rule})` };
  }
  const result = await tool.run(parsed, {
    signal,
    cwd: ctx.cwd,
    sessionId: ctx.sessionId,
    callId: "attach",
    output: ctx.tools.output,
  });
  if (result.isError) return { ok: false, reason: result.content.split("\n")[0] ?? "" };
  return { ok: true, note: `@${path}\n${result.content}` };
}
