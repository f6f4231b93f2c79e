// Maps whatever an SDK call throws (HTTP errors, in-stream error events, cut sockets, aborts)
// to one ProviderFailure, and wraps adapters so a stream function never throws once called.
// Duck-typed on purpose: the SDKs are imported lazily, so their classes are not at hand here.
import { errorMessage } from "../errors.ts";
import { type HeaderReader, isHeaderReader } from "./http-client.ts";
import { type IdleWatch, idleMessage, watchIdle } from "./idle-watch.ts";
import type {
  DeltaSink,
  ProviderConfig,
  ProviderFailure,
  ProviderRequest,
  StreamPart,
  ToolInputStartSink,
} from "./types.ts";

/** What an adapter has seen so far; the wrapper reads it to classify a failure. */
export interface StreamTrack {
  /** Response headers arrived (a `start` part was yielded). */
  started: boolean;
  /** A delta was emitted. */
  partial: boolean;
  requestId: string | null;
}

/** Thrown by adapters when the body ended cleanly but before the message was complete. */
export class IncompleteStreamError extends Error {
  override readonly name = "IncompleteStreamError";
}

/** An error the server reported inside a 200 stream (a Responses `error`/`response.failed`). */
export class StreamEventError extends Error {
  override readonly name = "StreamEventError";
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** Wraps what the request's delta sink threw, so it is not mistaken for a network failure. */
class DeltaSinkError extends Error {
  override readonly name = "DeltaSinkError";
}

/** The message of the error part that ends a cancelled stream. */
export const CANCELLED_MESSAGE = "request cancelled";

type Inner = (
  config: ProviderConfig,
  request: ProviderRequest,
  emit: DeltaSink,
  startTool: ToolInputStartSink,
) => AsyncGenerator<StreamPart>;

/**
 * Turns an adapter generator into a StreamFunction whose failures end as one `error` part.
 * Adapters hand deltas to `emit`: straight to the request's `onDelta` when there is one,
 * otherwise queued and yielded as `delta` parts in order; the start of a tool call's input
 * (`startTool`) likewise, to the request's `onToolInputStart`. A hand-written iterator rather than
 * another async generator layer, which would cost a promise and a result object per part.
 */
export function guardStream(inner: Inner) {
  return function guarded(
    config: ProviderConfig,
    request: ProviderRequest,
  ): AsyncIterableIterator<StreamPart> {
    const track: StreamTrack = { started: false, partial: false, requestId: null };
    const queue: StreamPart[] = [];
    const idle = watchIdle(request.signal, request.idleTimeoutMs);
    const emit = deltaEmitter(track, request.onDelta, queue, idle);
    const startTool = toolStartEmitter(request, queue);
    let source: AsyncGenerator<StreamPart> | null = null;
    let finished = false;
    /** Delivers a part after the deltas queued before it. */
    const deliver = (part: StreamPart): IteratorResult<StreamPart> => {
      if (queue.length === 0) return { done: false, value: part };
      queue.push(part);
      return { done: false, value: queue.shift() as StreamPart };
    };
    const step = async (): Promise<IteratorResult<StreamPart>> => {
      if (queue.length > 0) return { done: false, value: queue.shift() as StreamPart };
      if (finished) return { done: true, value: undefined };
      try {
        if (!source) {
          if (request.signal.aborted) throw new Error(CANCELLED_MESSAGE);
          source = inner(config, { ...request, signal: idle.signal }, emit, startTool);
        }
        const next = await source.next();
        idle.activity++;
        if (next.done) {
          // The SDKs end their iterators silently on abort; a cancelled stream must say so.
          if (idle.signal.aborted) throw new Error(CANCELLED_MESSAGE);
          finished = true;
          idle.stop();
          return queue.length > 0 ? { done: false, value: queue.shift() as StreamPart } : next;
        }
        observe(track, next.value);
        if (next.value.type !== "start") idle.stop(); // a message or an error ends the stream
        return deliver(next.value);
      } catch (error) {
        finished = true;
        idle.stop();
        return deliver({ type: "error", error: failureOf(error, track, request, idle) });
      }
    };
    const iterator: AsyncIterableIterator<StreamPart> = {
      next: step,
      async return() {
        finished = true;
        idle.stop();
        queue.length = 0;
        await source?.return(undefined);
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  };
}

/** An idle watch's abort is a retryable failure of its own; anything else, `toFailure`. */
function failureOf(
  error: unknown,
  track: StreamTrack,
  request: ProviderRequest,
  idle: IdleWatch,
): ProviderFailure {
  if (!idle.fired || request.signal.aborted) return toFailure(error, track, request.signal);
  const message = idleMessage(request.idleTimeoutMs ?? 0);
  return {
    message,
    status: null,
    requestId: track.requestId,
    retryable: true,
    partial: track.partial,
  };
}

/** The `emit` an adapter gets: records that content arrived, then passes the delta on. */
function deltaEmitter(
  track: StreamTrack,
  sink: DeltaSink | undefined,
  queue: StreamPart[],
  idle: IdleWatch,
): DeltaSink {
  if (!sink) {
    return (block, kind, delta) => {
      track.partial = true;
      idle.activity++;
      queue.push({ type: "delta", block, kind, delta });
    };
  }
  return (block, kind, delta) => {
    track.partial = true;
    idle.activity++;
    try {
      sink(block, kind, delta);
    } catch (error) {
      throw new DeltaSinkError(errorMessage(error), { cause: error });
    }
  };
}

/**
 * The `startTool` an adapter gets: to the request's sink, else queued as a part when deltas
 * are (so it stays before its block's deltas), else dropped.
 */
function toolStartEmitter(request: ProviderRequest, queue: StreamPart[]): ToolInputStartSink {
  const sink = request.onToolInputStart;
  if (sink) {
    return (start) => {
      try {
        sink(start);
      } catch (error) {
        throw new DeltaSinkError(errorMessage(error), { cause: error });
      }
    };
  }
  if (request.onDelta) return () => undefined;
  return (start) => queue.push({ type: "tool_input_start", ...start });
}

function observe(track: StreamTrack, part: StreamPart): void {
  if (part.type === "start") {
    track.started = true;
    track.requestId = part.requestId;
  }
}

/** Classifies a thrown value. An aborted signal wins over whatever the SDK threw. */
export function toFailure(
  error: unknown,
  track: StreamTrack,
  signal: AbortSignal,
): ProviderFailure {
  const base = { partial: track.partial, requestId: track.requestId };
  if (signal.aborted) {
    return { ...base, message: CANCELLED_MESSAGE, status: null, retryable: false };
  }
  if (error instanceof IncompleteStreamError || error instanceof DeltaSinkError) {
    return { ...base, message: error.message, status: null, retryable: false };
  }
  if (error instanceof StreamEventError) {
    const retryable = RETRYABLE_TYPES.has(error.type);
    return { ...base, message: `${error.type}: ${error.message}`, status: null, retryable };
  }
  const api = readApiError(error);
  if (api === null) {
    const message = withCause(error);
    // A connection failure before any response byte, or a stream cut mid-way, is worth another
    // try: the loop records the partial as step/failed (never replayed) and retries the step.
    return { ...base, message, status: null, retryable: true };
  }
  const retryAfterMs = api.headers ? parseRetryAfter(api.headers) : undefined;
  return {
    ...base,
    message: api.message,
    status: api.status,
    requestId: api.requestId ?? track.requestId,
    retryable: api.retryable || (api.connection && !track.started),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

interface ApiErrorView {
  message: string;
  status: number | null;
  requestId: string | null;
  headers: HeaderReader | null;
  retryable: boolean;
  connection: boolean;
}

const RETRYABLE_TYPES = new Set([
  "overloaded_error",
  "rate_limit_error",
  "api_error",
  "server_error",
]);

/** Reads the SDKs' APIError shape (status, headers, error body, requestID), or null. */
function readApiError(error: unknown): ApiErrorView | null {
  if (!(error instanceof Error) || !("status" in error) || !("headers" in error)) return null;
  const status = typeof error.status === "number" ? error.status : null;
  const headers = isHeaderReader(error.headers) ? error.headers : null;
  const body = "error" in error ? error.error : undefined;
  const { type, message } = readErrorBody(body);
  const connection = error.constructor.name.includes("Connection");
  const requestId =
    ("requestID" in error && typeof error.requestID === "string" ? error.requestID : null) ??
    headerRequestId(headers);
  const retryable =
    status === 408 ||
    status === 429 ||
    (status !== null && status >= 500) ||
    (type !== null && RETRYABLE_TYPES.has(type));
  const prefix = [status === null ? null : `HTTP ${status}`, type].filter(Boolean).join(" ");
  const text = message ?? withCause(error);
  return {
    message: prefix ? `${prefix}: ${text}` : text,
    status,
    requestId,
    headers,
    retryable,
    connection,
  };
}

/** Anthropic nests `{error: {type, message}}`; OpenAI's SDK hands over the inner object. */
function readErrorBody(body: unknown): { type: string | null; message: string | null } {
  if (typeof body !== "object" || body === null) return { type: null, message: null };
  const inner = "error" in body && typeof body.error === "object" ? body.error : body;
  if (typeof inner !== "object" || inner === null) return { type: null, message: null };
  const type = "type" in inner && typeof inner.type === "string" ? inner.type : null;
  const code = "code" in inner && typeof inner.code === "string" ? inner.code : null;
  const message = "message" in inner && typeof inner.message === "string" ? inner.message : null;
  return { type: type ?? code, message };
}

/** The request id of a response: Anthropic sends `request-id`, OpenAI `x-request-id`. */
export function headerRequestId(headers: HeaderReader | null | undefined): string | null {
  return headers?.get("request-id") ?? headers?.get("x-request-id") ?? null;
}

/** `retry-after-ms`, else `retry-after` as seconds or an HTTP date; undefined when absent. */
export function parseRetryAfter(headers: HeaderReader, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function withCause(error: unknown): string {
  const message = errorMessage(error);
  if (error instanceof Error && error.cause !== undefined) {
    return `${message} (${errorMessage(error.cause)})`;
  }
  return message;
}
