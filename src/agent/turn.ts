// One turn of the loop: steps until the model stops calling tools (and no steering is
// waiting, and no Stop hook blocks) or proposes a plan nobody can approve, `max_steps`, the budget, the context window (compacted
// first past its threshold, compaction.ts), an
// unrecoverable provider error, a hook's stop request or cancellation. Each step retries its
// request per config `[retry]`. Called by agent.ts.
import type { ProviderFailure } from "../providers/index.ts";
import {
  compactionThresholdOf,
  contextWindowOf,
  formatCost,
  formatCostDetail,
} from "../providers/index.ts";
import type { Payload } from "../session/events.ts";
import { compactHistory } from "./compaction.ts";
import { applyHookNotes, notify, recordNotes, stopMessage } from "./notes.ts";
import { withRetries } from "./request-retry.ts";
import { describeFailure } from "./retry.ts";
import type { RunContext } from "./run-context.ts";
import { applyToolChanges } from "./session-tools.ts";
import { type AttemptOutcome, buildRequest, streamAttempt } from "./step.ts";
import { executeToolCalls, recordToolCalls, type TurnStop } from "./tool-calls.ts";

export type TurnReason = Payload<"turn/end">["reason"];

export interface TurnOutcome {
  turn: number;
  reason: TurnReason;
  /** One line for the user when the turn did not complete. */
  error?: string;
}

/** What the turn reads from the agent while it runs. */
interface TurnControl {
  signal: AbortSignal;
  /** USD spent by the whole session so far. */
  sessionCost(): number;
  /** Steering messages accepted since the last request was built; reading resets it. */
  takeSteering(): number;
}

type StepResult =
  | Extract<AttemptOutcome, { ok: true }>
  | { ok: false; outcome: Omit<TurnOutcome, "turn"> };

export async function runTurn(
  ctx: RunContext,
  turn: number,
  control: TurnControl,
): Promise<TurnOutcome> {
  const end = (outcome: Omit<TurnOutcome, "turn">): TurnOutcome => {
    ctx.writer.append({
      type: "turn/end",
      turn,
      reason: outcome.reason,
      ...(outcome.reason === "error" ? { error: outcome.error } : {}),
    });
    return { turn, ...outcome };
  };
  applyToolChanges(ctx, turn);
  const maxSteps = ctx.config.max_steps;
  let stopHookActive = false;
  for (let step = 0; step < maxSteps; step++) {
    const limit = checkBudget(ctx, control) ?? (await fitWindow(ctx, turn, control.signal));
    if (limit) return end(limit);
    control.takeSteering();
    const result = await requestStep(ctx, turn, step, control.signal);
    if (!result.ok) return end(result.outcome);
    const calls = await recordToolCalls(ctx, turn, step, result.toolCalls, control.signal);
    const stop = (await executeToolCalls(ctx, turn, calls.prepared, control.signal)) ?? calls.stop;
    if (control.signal.aborted) return end(cancelled());
    if (stop) return end(stopped(stop));
    // A plan nobody could approve (exec without an input channel) is the turn's answer.
    if (ctx.plans?.takeTurnEnd()) return end({ reason: "completed" });
    if (result.toolCalls.length > 0 || control.takeSteering() > 0) continue;
    const finish = await stopHooks(ctx, turn, stopHookActive, control.signal);
    if (finish) return end(finish);
    stopHookActive = true;
  }
  return end({
    reason: "max_steps",
    error: `stopped after ${maxSteps} ${maxSteps === 1 ? "step" : "steps"} (max_steps)`,
  });
}

function cancelled(): Omit<TurnOutcome, "turn"> {
  return { reason: "cancelled", error: "cancelled" };
}

/** A hook or plugin ended the turn: an error whose text names it and its reason. */
function stopped(stop: TurnStop): Omit<TurnOutcome, "turn"> {
  return { reason: "error", error: stopMessage(stop) };
}

/**
 * The turn would complete: the Stop hooks decide. Returns how it ends, or null when a hook
 * blocked (its reason is recorded as a note for the model and the turn goes on).
 */
async function stopHooks(
  ctx: RunContext,
  turn: number,
  stopHookActive: boolean,
  signal: AbortSignal,
): Promise<Omit<TurnOutcome, "turn"> | null> {
  const notes = await ctx.guard.hooks.stop(stopHookActive);
  applyHookNotes(ctx, turn, "Stop", notes);
  if (signal.aborted) return cancelled();
  if (notes.stop) return stopped(notes.stop);
  if (!notes.block) return { reason: "completed" };
  recordNotes(ctx, turn, "hook:Stop", [notes.block.reason]);
  return null;
}

/** Money in the stop message: to the cent; four decimals under a cent, where cents mislead. */
function dollars(usd: number): string {
  return usd > 0 && usd < 0.01 ? formatCostDetail(usd) : formatCost(usd);
}

/** Within this share of the compaction limit the request is counted (by the provider if it can). */
const NEAR_LIMIT = 0.85;

/** The budget, checked before each request. */
function checkBudget(ctx: RunContext, control: TurnControl): Omit<TurnOutcome, "turn"> | null {
  if (control.signal.aborted) return cancelled();
  const cap = ctx.config.max_budget_usd;
  const spent = control.sessionCost();
  if (cap !== undefined && spent >= cap) {
    return {
      reason: "max_budget",
      error: `stopped: the session cost ${dollars(spent)} reached the budget of ${dollars(cap)}`,
    };
  }
  return null;
}

/**
 * The context window, before each request: past `[compaction] threshold` of it the history is
 * compacted first (unless `[compaction] enabled = false` or a PreCompact hook blocks it); a
 * request that would still not fit ends the turn with one line saying how to go on.
 */
async function fitWindow(
  ctx: RunContext,
  turn: number,
  signal: AbortSignal,
): Promise<Omit<TurnOutcome, "turn"> | null> {
  const lookup = { provider: ctx.provider.name, overrides: ctx.config.models };
  const window = contextWindowOf(ctx.model, lookup);
  if (window === null) return null;
  const specs = ctx.tools.specs();
  const share = compactionThresholdOf(ctx.model, lookup) ?? ctx.config.compaction.threshold;
  const model = `${ctx.provider.name}/${ctx.model}`;
  const limit = Math.floor(window * share);
  // Near the limit the provider counts the request exactly where it can; the estimate else.
  if (!ctx.tokens.exceeds(Math.floor(limit * NEAR_LIMIT), ctx.system, specs)) return null;
  const counted = ctx.count ? await ctx.count(ctx.provider, buildRequest(ctx, signal)) : null;
  if (signal.aborted) return cancelled();
  const tokens = counted ?? ctx.tokens.tokens(ctx.system, specs);
  if (tokens <= limit) return null;
  let now = tokens;
  if (ctx.config.compaction.enabled) {
    const outcome = await compactHistory(ctx, {
      trigger: "auto",
      turn,
      noteTurn: turn,
      tokensBefore: tokens,
      signal,
    });
    if (!outcome.ok && outcome.reason === "cancelled") return cancelled();
    if (!outcome.ok && outcome.reason === "failed") {
      return {
        reason: "error",
        error: `the context is full (about ${tokens} of ${window} tokens of ${model}) and compacting it failed: ${outcome.error}; nothing was lost: run /compact (or codewhale exec --resume ${ctx.sessionId} --compact) to try again, or start a new session`,
      };
    }
    if (!outcome.ok && outcome.reason === "blocked") notify(ctx, "hook", [outcome.error]);
    if (outcome.ok) now = outcome.event.tokens_after;
  }
  if (now <= window) return null;
  return {
    reason: "error",
    error: `the request of about ${now} tokens exceeds the context window of ${window} tokens of ${model}`,
  };
}

/** One step's request, retried per config `[retry]`; records `step/failed` for each failure. */
async function requestStep(
  ctx: RunContext,
  turn: number,
  step: number,
  signal: AbortSignal,
): Promise<StepResult> {
  const outcome = await withRetries(
    ctx,
    signal,
    () => streamAttempt(ctx, turn, step, signal),
    (failed) => ctx.writer.append({ type: "step/failed", turn, step, ...failed }),
  );
  if (outcome.ok) return outcome;
  if (outcome.cancelled) return { ok: false, outcome: cancelled() };
  return { ok: false, outcome: providerError(ctx, outcome.failure) };
}

function providerError(ctx: RunContext, failure: ProviderFailure): Omit<TurnOutcome, "turn"> {
  return { reason: "error", error: describeFailure(ctx.provider.name, failure) };
}
