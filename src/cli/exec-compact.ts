// `codewhale exec --resume <id> --compact [focus]`: compacts a stored session's history now
// (agent.compact) instead of running a prompt, and prints what happened as one line (text) or
// one JSON object (json, stream-json). Exit 0 when compacted or there was nothing to compact,
// 1 when the summarising request failed (nothing is lost), 130 when cancelled. Used by
// exec-command.ts.
import type { Agent, CompactOutcome } from "../agent/index.ts";
import { ExitCode, RunStoppedError, UsageError } from "../errors.ts";
import type { StreamLine } from "../present/stream-json.ts";
import type { OutputFormat } from "./exec-output.ts";

/** `--compact` is for a stored session, alone: no prompt, no stdin-driven session. */
export function checkCompactFlags(options: {
  compact?: string | boolean;
  resume?: string;
  continue?: boolean;
  inputFormat: string;
  prompt: string | undefined;
}): void {
  if (options.compact === undefined) return;
  if (options.resume === undefined && options.continue !== true) {
    throw new UsageError("--compact needs the session to compact: add --resume <id> or --continue");
  }
  if (options.inputFormat !== "text") {
    throw new UsageError("--compact takes no --input-format stream-json (send /compact instead)");
  }
  if (options.prompt !== undefined) {
    throw new UsageError(
      "--compact runs no prompt: run the prompt with a second `codewhale exec --resume`",
    );
  }
}

/** The focus text of `--compact [focus]` (commander gives `true` without a value). */
export function compactFocus(value: string | boolean): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

export async function runCompact(
  agent: Agent,
  focus: string | undefined,
  format: OutputFormat,
  write: (text: string) => void,
): Promise<void> {
  const outcome = await agent.dispatch({ type: "compact", focus });
  write(
    format === "text"
      ? `${textLine(agent, outcome)}\n`
      : `${JSON.stringify(compactionLine(agent, outcome))}\n`,
  );
  if (outcome.reason === "compacted" || outcome.reason === "nothing") return;
  if (outcome.reason === "cancelled" || outcome.reason === "withdrawn") {
    throw new RunStoppedError("cancelled", ExitCode.cancelled);
  }
  throw new RunStoppedError(
    `compacting session ${agent.sessionId} failed: ${outcome.error}; nothing was lost`,
    ExitCode.failure,
  );
}

function textLine(agent: Agent, outcome: CompactOutcome): string {
  if (outcome.reason !== "compacted") {
    return outcome.reason === "nothing" ? `${outcome.error}` : `not compacted: ${outcome.reason}`;
  }
  const { event } = outcome;
  return `compacted session ${agent.sessionId}: about ${event.tokens_before} → ${event.tokens_after} tokens (summary by ${event.provider}/${event.model})`;
}

/** The `compaction` line of `--compact` and of a stream-json `compact` input line. */
export function compactionLine(agent: Agent, outcome: CompactOutcome): StreamLine {
  if (outcome.reason !== "compacted") {
    return {
      type: "compaction",
      session_id: agent.sessionId,
      compacted: false,
      reason: outcome.reason,
      ...(outcome.reason === "withdrawn" ? {} : { error: outcome.error }),
    };
  }
  const { event } = outcome;
  return {
    type: "compaction",
    session_id: agent.sessionId,
    compacted: true,
    seq: event.seq,
    tokens_before: event.tokens_before,
    tokens_after: event.tokens_after,
    provider: event.provider,
    model: event.model,
    usage: event.usage,
    cost_usd: event.cost,
  };
}
