// Fault helpers for the mock provider: HTTP errors (429 with retry-after, 500, 529
// overloaded), in-stream errors, cut streams, slow tokens and a flood of tiny deltas.
// Each returns something to `enqueue` on a mock server.
import type { HttpFault, Script } from "./script.ts";

export function rateLimited(retryAfter: string, extra: Record<string, string> = {}): HttpFault {
  return {
    fault: "http",
    status: 429,
    errorType: "rate_limit_error",
    message: "Rate limited by the mock",
    headers: { "retry-after": retryAfter, ...extra },
  };
}

export function serverError(): HttpFault {
  return { fault: "http", status: 500, errorType: "api_error", message: "Mock internal error" };
}

/** Anthropic's 529 `overloaded_error`. */
export function overloaded(): HttpFault {
  return { fault: "http", status: 529, errorType: "overloaded_error", message: "Overloaded" };
}

export function badRequest(message = "Mock bad request"): HttpFault {
  return { fault: "http", status: 400, errorType: "invalid_request_error", message };
}

/** The script's stream carries an error event after `events` events. */
export function inStreamError(script: Script, events: number, type = "overloaded_error"): Script {
  return { ...script, errorAfterEvents: { events, type, message: `Mock ${type}` } };
}

/** The socket is destroyed after `events` events. */
export function streamCut(script: Script, events: number): Script {
  return { ...script, cutAfterEvents: events };
}

/** Every event waits `delayMs` first. */
export function slow(script: Script, delayMs: number): Script {
  return { ...script, delayMs };
}

/** `count` text deltas of `delta` each, sent as fast as the socket takes them. */
export function flood(count: number, delta = "tok "): Script {
  return { blocks: [{ kind: "text", text: delta.repeat(count) }], chunkSize: delta.length };
}
