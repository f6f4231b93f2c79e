// The shape every adapter's stream function shares once its SDK call is made: announce the
// response (`start` with its request id), feed each SDK event to the adapter's assembly (which
// emits deltas), and end with the assembled message, or fail when the body ended early.
import { headerRequestId, IncompleteStreamError } from "./failure.ts";
import type { HeaderReader } from "./http-client.ts";
import type { ProviderRequest, StreamPart } from "./types.ts";

/** Folds one SDK's stream events into the native message of `assistant/message`. */
export interface StreamAssembly<Event> {
  apply(event: Event): void;
  /** The stream's own end marker arrived (message_stop, a finish reason, response.completed). */
  readonly complete: boolean;
  finish(requestId: string | null): StreamPart;
}

export async function* assembledStream<Event>(
  opened: { data: AsyncIterable<Event>; response: { headers: HeaderReader } },
  assembly: StreamAssembly<Event>,
  request: ProviderRequest,
  endMarker: string,
): AsyncGenerator<StreamPart> {
  const requestId = headerRequestId(opened.response.headers);
  yield { type: "start", requestId };
  for await (const event of opened.data) assembly.apply(event);
  if (request.signal.aborted) return;
  if (!assembly.complete) throw new IncompleteStreamError(`stream ended before ${endMarker}`);
  yield assembly.finish(requestId);
}
