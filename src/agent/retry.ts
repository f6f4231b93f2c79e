// When to retry a failed request and how long to wait: exponential backoff with full jitter,
// honouring the server's retry-after, bounded by config `[retry]` (attempts and a total time
// budget). Pure apart from the injectable clock, sleep and random source used by the loop.
import type { Config } from "../config/index.ts";
import type { ProviderFailure } from "../providers/index.ts";

/** What the backoff reads of `[retry]`. */
type RetrySettings = Omit<Config["retry"], "stream_idle_timeout_ms">;

/** How the loop waits between attempts; tests inject one that does not wait. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });

/**
 * Worth another try: what the adapter calls retryable (429, 5xx, overloaded, no connection),
 * and a stream cut mid-way (no HTTP status, some content received).
 */
export function isRetryable(failure: ProviderFailure): boolean {
  return failure.retryable || (failure.partial && failure.status === null);
}

/**
 * The wait before retry number `attempt` (0-based), or null to give up: out of attempts, or
 * the wait would end past the budget counted from the first attempt.
 */
export function retryDelay(
  settings: RetrySettings,
  failure: ProviderFailure,
  attempt: number,
  elapsedMs: number,
  random: () => number = Math.random,
): number | null {
  if (attempt >= settings.max_retries) return null;
  const ceiling = Math.min(settings.max_delay_ms, settings.initial_delay_ms * 2 ** attempt);
  const jittered = Math.floor(random() * ceiling);
  const delay = Math.max(jittered, failure.retryAfterMs ?? 0);
  if (elapsedMs + delay > settings.budget_ms) return null;
  return delay;
}

/** The one line a user sees: `<provider> HTTP <status> (request <id>): <message>`. */
export function describeFailure(provider: string, failure: ProviderFailure): string {
  const status = failure.status === null ? "" : ` HTTP ${failure.status}`;
  const request = failure.requestId ? ` (request ${failure.requestId})` : "";
  const message = failure.message.replace(/^HTTP \d+:?\s*/, "");
  return `${provider}${status}${request}: ${message}`;
}
