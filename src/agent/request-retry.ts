// One request, retried per config `[retry]`: each failed attempt is recorded (by the caller's
// `record`: `step/failed` for a step, `compaction/failed` for a summarising request) with
// what arrived and whether another attempt follows. Used by turn.ts and compaction.ts.
import type { ProviderFailure } from "../providers/index.ts";
import { isRetryable, retryDelay } from "./retry.ts";
import type { RunContext } from "./run-context.ts";
import type { PartialBlock } from "./step.ts";

/** What a failed attempt's event records. */
interface FailedAttempt {
  error: string;
  status: number | null;
  request_id: string | null;
  partial: PartialBlock[];
  will_retry: boolean;
  retry?: { delay_ms: number; next_attempt: number; max_attempts: number };
}

type Attempt<T> =
  | ({ ok: true } & T)
  | { ok: false; failure: ProviderFailure; partial: PartialBlock[] };

type Retried<T> =
  | ({ ok: true } & T)
  | { ok: false; cancelled: true }
  | { ok: false; cancelled: false; failure: ProviderFailure };

export async function withRetries<T>(
  ctx: RunContext,
  signal: AbortSignal,
  attempt: () => Promise<Attempt<T>>,
  record: (failed: FailedAttempt) => void,
): Promise<Retried<T>> {
  const started = ctx.now();
  for (let n = 0; ; n++) {
    const outcome = await attempt();
    if (outcome.ok) return outcome;
    const { failure, partial } = outcome;
    const delay =
      signal.aborted || !isRetryable(failure)
        ? null
        : retryDelay(ctx.config.retry, failure, n, ctx.now() - started, ctx.random);
    record({
      error: signal.aborted ? "cancelled" : failure.message,
      status: failure.status,
      request_id: failure.requestId,
      partial,
      will_retry: delay !== null,
      ...(delay === null
        ? {}
        : {
            retry: {
              delay_ms: delay,
              next_attempt: n + 2,
              max_attempts: ctx.config.retry.max_retries + 1,
            },
          }),
    });
    if (signal.aborted) return { ok: false, cancelled: true };
    if (delay === null) return { ok: false, cancelled: false, failure };
    await ctx.sleep(delay, signal);
    if (signal.aborted) return { ok: false, cancelled: true };
  }
}
