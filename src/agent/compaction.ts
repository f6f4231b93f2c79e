// Compacting the history (docs/compaction.md): the PreCompact hooks, the plan (where to cut),
// the summarising request retried like a step (`compaction/start`, `compaction/chunk`,
// `compaction/failed`), the durable `context/compaction` that replay puts in place of what it
// covers, then the SessionStart hooks with source `compact`. The log keeps every event.
// Called by turn.ts (automatic, before a request) and agent.ts (`agent.compact`).
import { contextWindowOf, costOf } from "../providers/index.ts";
import { readNative } from "../providers/neutral.ts";
import { countTokens, messageText } from "../providers/token-count.ts";
import type { ProviderRequest } from "../providers/types.ts";
import { summaryMessages } from "../session/compaction-summary.ts";
import type { HistoryMessage } from "../session/derive.ts";
import type { EventOf } from "../session/events.ts";
import { type CompactionPlan, planCompaction } from "./compaction-plan.ts";
import { applyHookNotes, notify } from "./notes.ts";
import { withRetries } from "./request-retry.ts";
import { describeFailure } from "./retry.ts";
import type { RunContext } from "./run-context.ts";
import { buildRequest, type MessagePart, streamRequest } from "./step.ts";

/** The share of the window kept verbatim after the summary (the newest messages). */
export const KEEP_SHARE = 0.25;

export interface CompactionRequest {
  trigger: "auto" | "manual";
  /** The turn it runs in; absent between turns. */
  turn?: number;
  /** The turn the SessionStart hooks' notes are recorded under. */
  noteTurn: number;
  /** What the summary should focus on (`/compact <focus>`). */
  focus?: string;
  /** The request's tokens as the caller counted them (the provider's count); else estimated. */
  tokensBefore?: number;
  signal: AbortSignal;
}

export type CompactionOutcome =
  | { ok: true; event: EventOf<"context/compaction"> }
  | { ok: false; reason: "blocked" | "nothing" | "failed" | "cancelled"; error: string };

export async function compactHistory(
  ctx: RunContext,
  request: CompactionRequest,
): Promise<CompactionOutcome> {
  const { trigger, signal } = request;
  const hooks = await ctx.guard.hooks.preCompact(trigger, request.focus ?? "");
  notify(ctx, "hook", hooks.notices);
  if (signal.aborted) return { ok: false, reason: "cancelled", error: "cancelled" };
  if (hooks.block && trigger === "auto") {
    const error = `compaction blocked by ${hooks.block.by}: ${hooks.block.reason}`;
    return { ok: false, reason: "blocked", error };
  }
  if (hooks.block) {
    notify(ctx, "hook", [`${hooks.block.by} would block it; a manual compaction goes ahead`]);
  }
  const window = contextWindowOf(ctx.model, {
    provider: ctx.provider.name,
    overrides: ctx.config.models,
  });
  // A manual compaction summarises everything but the last prompt; an automatic one keeps
  // the newest messages verbatim, up to a share of the window, so the work goes on smoothly.
  const keep = trigger === "manual" ? 0 : window === null ? 0 : Math.floor(window * KEEP_SHARE);
  const plan = planCompaction(ctx.deriver.current(), keep);
  if (!plan) return { ok: false, reason: "nothing", error: "there is nothing to compact yet" };
  const summarizer = ctx.summarizer ?? { provider: ctx.provider, model: ctx.model };
  const specs = ctx.tools.specs();
  const before = request.tokensBefore ?? ctx.tokens.tokens(ctx.system, specs);
  ctx.writer.append({
    type: "compaction/start",
    ...(request.turn === undefined ? {} : { turn: request.turn }),
    trigger,
    provider: summarizer.provider.name,
    model: summarizer.model,
    tokens_before: before,
  });
  const instructions = hooks.context;
  const prompt = summaryPrompt(request.focus, instructions);
  // A history that would not fit the window itself is summarised from shortened tool results.
  const input =
    window !== null && before > window * FIT_SHARE ? shortened(plan.replaced) : plan.replaced;
  const outcome = await withRetries(
    ctx,
    signal,
    () => summaryAttempt(ctx, summarizer, input, prompt, signal),
    (failed) => ctx.writer.append({ type: "compaction/failed", ...failed }),
  );
  if (!outcome.ok) {
    if (outcome.cancelled) return { ok: false, reason: "cancelled", error: "cancelled" };
    const error = describeFailure(summarizer.provider.name, outcome.failure);
    return { ok: false, reason: "failed", error };
  }
  const { message, summary } = outcome;
  const lookup = { provider: summarizer.provider.name, overrides: ctx.config.models };
  const after = ctx.tokens.fixedTokens(ctx.system, specs) + tokensAfter(summary, plan);
  const event = ctx.writer.append({
    type: "context/compaction",
    ...(request.turn === undefined ? {} : { turn: request.turn }),
    trigger,
    first_seq: (plan.replaced[0] as HistoryMessage).seq,
    last_seq: (plan.replaced.at(-1) as HistoryMessage).seq,
    ...(plan.kept[0] ? { kept_from_seq: plan.kept[0].seq } : {}),
    ...(plan.user ? { kept_user_seq: plan.user.seq } : {}),
    summary,
    provider: summarizer.provider.name,
    model: summarizer.model,
    request_id: message.requestId,
    usage: message.usage,
    cost: costOf(summarizer.model, message.usage, lookup),
    tokens_before: before,
    tokens_after: after,
    ...(request.focus ? { focus: request.focus } : {}),
    ...(instructions.length > 0 ? { instructions } : {}),
  }) as EventOf<"context/compaction">;
  const notes = await ctx.guard.hooks.sessionStart("compact");
  applyHookNotes(ctx, request.noteTurn, "SessionStart", notes);
  return { ok: true, event };
}

/** Past this share of the window the summarising request shortens tool results. */
const FIT_SHARE = 0.9;
/** What a shortened tool result keeps of its text, from the start. */
const SHORT_RESULT_CHARS = 2_000;

/** The messages with every tool result cut to its first SHORT_RESULT_CHARS characters. */
function shortened(messages: HistoryMessage[]): HistoryMessage[] {
  return messages.map((message) =>
    message.role === "tool" && message.content.length > SHORT_RESULT_CHARS
      ? {
          ...message,
          content: `${message.content.slice(0, SHORT_RESULT_CHARS)}\n[… ${message.content.length - SHORT_RESULT_CHARS} more characters cut for the summary]`,
        }
      : message,
  );
}

/** The estimated history after: the summary, the prompt kept with it, the kept messages. */
function tokensAfter(summary: string, plan: CompactionPlan): number {
  const texts = [
    ...summaryMessages(summary, 0, plan.user ?? plan.kept[0]),
    ...(plan.user ? [plan.user] : []),
    ...plan.kept,
  ];
  return texts.reduce((sum, message) => sum + countTokens(messageText(message)), 0);
}

type Summarizer = NonNullable<RunContext["summarizer"]>;

/** One attempt at the summarising request: its deltas as `compaction/chunk`. */
async function summaryAttempt(
  ctx: RunContext,
  summarizer: Summarizer,
  replaced: HistoryMessage[],
  prompt: string,
  signal: AbortSignal,
) {
  const outcome = await streamRequest(
    ctx,
    summarizer.provider,
    (onDelta) => summaryRequest(ctx, summarizer.model, replaced, prompt, signal, onDelta),
    (block, kind, delta) => ctx.writer.appendDelta({ compaction: true, block, kind, delta }),
  );
  if (!outcome.ok) return outcome;
  const summary = summaryOf(outcome.message);
  if (summary !== "") return { ok: true as const, message: outcome.message, summary };
  const failure = {
    message: "the summarising request returned no text",
    status: null,
    requestId: outcome.message.requestId,
    retryable: true,
    partial: false,
  };
  return { ok: false as const, failure, partial: [] };
}

/**
 * The same system prompt and tools as the session's steps (a provider's prompt cache of the
 * history prefix still applies), the replaced messages, then the instruction to summarise.
 */
function summaryRequest(
  ctx: RunContext,
  model: string,
  replaced: HistoryMessage[],
  prompt: string,
  signal: AbortSignal,
  onDelta: ProviderRequest["onDelta"],
): ProviderRequest {
  const last = replaced.at(-1)?.seq ?? 0;
  const messages = [...replaced, { role: "user" as const, text: prompt, seq: last + 1 }];
  return buildRequest(ctx, signal, onDelta, { model, messages });
}

/** The summary: the answer's text blocks (thinking and any tool call left out). */
function summaryOf(message: MessagePart): string {
  return readNative(message.content)
    .map((block) => (block.kind === "text" ? block.text : ""))
    .filter((text) => text !== "")
    .join("\n")
    .trim();
}

/** The instruction that ends the summarising request. */
export function summaryPrompt(focus: string | undefined, instructions: readonly string[]): string {
  const lines = [
    "[codewhale] The conversation is about to be compacted to save context: everything above will be replaced by your summary, followed by the most recent messages verbatim.",
    "Do not call any tool. Write a summary that lets you continue the work without the replaced messages:",
    "1. The user's requests and intent, in their own words where it matters.",
    "2. What has been done: files read or changed (with paths), commands run and their outcome, decisions and why.",
    "3. Errors met and how they were resolved; what was tried and did not work.",
    "4. The current state and the next step, with anything still pending.",
    "Keep exact names, paths, identifiers and values. Be complete but concise.",
  ];
  if (focus) lines.push(`Focus the summary on: ${focus}`);
  for (const text of instructions) lines.push(`Additional instructions: ${text}`);
  return lines.join("\n");
}
