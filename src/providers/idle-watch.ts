// A stream that goes quiet is a failure, not a hang: the watch aborts the request once no
// response, part or delta has arrived for `idleMs` (checked every quarter of it, so it fires
// between 1 and 1.25 times idleMs after the last sign of life). Activity is a counter the
// stream bumps, so a delta costs one increment, not a timer reset.

export interface IdleWatch {
  /** Aborts when the request's own signal does, or when the stream has been idle too long. */
  readonly signal: AbortSignal;
  /** True once the watch, not the caller, aborted the request. */
  readonly fired: boolean;
  /** Counts signs of life; the stream increments it. */
  activity: number;
  stop(): void;
}

export function watchIdle(outer: AbortSignal, idleMs: number | undefined): IdleWatch {
  if (idleMs === undefined || idleMs <= 0) {
    return { signal: outer, fired: false, activity: 0, stop: () => undefined };
  }
  const controller = new AbortController();
  let seen = -1;
  let lastChange = Date.now();
  const watch: IdleWatch = {
    signal: AbortSignal.any([outer, controller.signal]),
    fired: false,
    activity: 0,
    stop: () => clearInterval(timer),
  };
  const timer = setInterval(
    () => {
      const now = Date.now();
      if (watch.activity !== seen) {
        seen = watch.activity;
        lastChange = now;
      } else if (now - lastChange >= idleMs) {
        (watch as { fired: boolean }).fired = true;
        clearInterval(timer);
        controller.abort();
      }
    },
    Math.max(1, Math.floor(idleMs / 4)),
  );
  timer.unref();
  return watch;
}

/** The failure message of a stream the watch ended. */
export function idleMessage(idleMs: number): string {
  return `no data from the provider for ${formatSeconds(idleMs)} (stream_idle_timeout_ms)`;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
