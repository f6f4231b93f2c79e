// One attempt at one step: `step/start`, the request, every streamed delta as a durable
// `assistant/chunk` (a tool input's start as the live `tool/input-start`), then
// `assistant/message` and `step/end` (usage and cost) on success. On failure it returns what
// arrived; the caller (turn.ts) records `step/failed` and may retry. `streamRequest` is the
// stream loop itself, shared with the summarising request.

import { errorMessage } from "../errors.ts";
import type {
  ModelToolCall,
  ProviderFailure,
  ProviderRequest,
  StreamPart,
} from "../providers/index.ts";
import { costOf } from "../providers/index.ts";
import type { BlockKind, DeltaSink, ToolInputStartSink } from "../providers/types.ts";
import { canonicalJson } from "../session/canonical-json.ts";
import type { JsonValue } from "../session/events.ts";
import { imageDirOf } from "../session/images.ts";
import { exceedsJsonDepth, MAX_JSON_DEPTH } from "../session/json-depth.ts";
import { safeFailure } from "./failure-text.ts";
import { modelTakesImages, withImageData, withoutImages } from "./request-images.ts";
import type { RunContext } from "./run-context.ts";
import { providerSearchOffer, searchesLeft, WEB_SEARCH } from "./web-searches.ts";

export interface PartialBlock {
  block: number;
  kind: BlockKind;
  text: string;
}

export type AttemptOutcome =
  | { ok: true; toolCalls: ModelToolCall[] }
  | { ok: false; failure: ProviderFailure; partial: PartialBlock[] };

export type MessagePart = Extract<StreamPart, { type: "message" }>;

export async function streamAttempt(
  ctx: RunContext,
  turn: number,
  step: number,
  signal: AbortSignal,
): Promise<AttemptOutcome> {
  ctx.writer.append({
    type: "step/start",
    turn,
    step,
    provider: ctx.provider.name,
    model: ctx.model,
  });
  // A tool input's start is live only: the deltas before it are published first.
  const startTool: ToolInputStartSink = ({ block, id, name }) => {
    ctx.writer.sealDeltas();
    ctx.bus.emit("tool/input-start", { turn, step, block, callId: id, tool: name });
  };
  const outcome = await streamRequest(
    ctx,
    ctx.provider,
    (onDelta, onToolInputStart) => buildRequest(ctx, signal, onDelta, undefined, onToolInputStart),
    (block, kind, delta) => ctx.writer.appendDelta({ turn, step, block, kind, delta }),
    startTool,
  );
  if (!outcome.ok) return outcome;
  recordMessage(ctx, turn, step, outcome.message);
  return { ok: true, toolCalls: outcome.message.toolCalls };
}

/** One request's stream: each delta to `record` (and kept), the message or the failure. */
type StreamOutcome =
  | { ok: true; message: MessagePart }
  | { ok: false; failure: ProviderFailure; partial: PartialBlock[] };

/** The levels an assistant/message event adds above its content array (the event object). */
const MESSAGE_NESTING = 1;

/**
 * Streams one request built by `build` (handed the delta sink), recording each delta the
 * moment it arrives (`record`) and handing each tool input's start to `startTool` (when
 * given); shared by steps and the summarising request (compaction.ts).
 */
export async function streamRequest(
  ctx: RunContext,
  provider: RunContext["provider"],
  build: (onDelta: DeltaSink, onToolInputStart?: ToolInputStartSink) => ProviderRequest,
  record: DeltaSink,
  startTool?: ToolInputStartSink,
): Promise<StreamOutcome> {
  const blocks = new Map<number, { kind: BlockKind; pieces: string[] }>();
  const partial = () =>
    [...blocks].map(([block, b]) => ({ block, kind: b.kind, text: b.pieces.join("") }));
  // Each delta goes to the log the moment it arrives (called by the adapter); the writer
  // records deltas that arrive together as one chunk.
  const onDelta: DeltaSink = (block, kind, delta) => {
    record(block, kind, delta);
    const entry = blocks.get(block);
    if (entry) entry.pieces.push(delta);
    else blocks.set(block, { kind, pieces: [delta] });
  };
  const safe = (failure: ProviderFailure) => safeFailure(failure, [provider.apiKey]);
  let requestId: string | null = null;
  try {
    for await (const part of ctx.stream(provider, build(onDelta, startTool))) {
      if (part.type === "start") requestId = part.requestId;
      else if (part.type === "delta") onDelta(part.block, part.kind, part.delta);
      else if (part.type === "tool_input_start") startTool?.(part);
      else if (part.type === "message") {
        // Recorded as it came, a response nested thousands of levels deep could not be read
        // back (session/json-depth.ts): the step fails instead, and the session goes on.
        if (!exceedsJsonDepth(part.content, MAX_JSON_DEPTH - MESSAGE_NESTING)) {
          return { ok: true, message: part };
        }
        const message = `the response nests JSON more than ${MAX_JSON_DEPTH} levels deep; it was not recorded`;
        // Not a cut stream (which is retried): the same request would answer the same.
        return { ok: false, failure: failureOf(message, requestId, false), partial: partial() };
      } else return { ok: false, failure: safe(part.error), partial: partial() };
    }
  } catch (error) {
    // Stream functions never throw by contract; a scripted one in a test might.
    return {
      ok: false,
      failure: safe(failureOf(errorMessage(error), requestId, blocks.size > 0)),
      partial: partial(),
    };
  }
  const message = "the stream ended without a message";
  return { ok: false, failure: failureOf(message, requestId, blocks.size > 0), partial: partial() };
}

/**
 * The next step's request (the compaction check counts it with the provider, turn.ts); with
 * `other`, the same request for another model and history (the summarising one, compaction.ts).
 */
export function buildRequest(
  ctx: RunContext,
  signal: AbortSignal,
  onDelta?: DeltaSink,
  other?: { model: string; messages: ProviderRequest["messages"] },
  onToolInputStart?: ToolInputStartSink,
): ProviderRequest {
  const images = other === undefined && modelTakesImages(ctx);
  const messages = other?.messages ?? ctx.deriver.messages();
  const request: ProviderRequest = {
    model: other?.model ?? ctx.model,
    system: ctx.system,
    messages: images
      ? withImageData(messages, imageDirOf(ctx.writer.path))
      : withoutImages(messages),
    tools: ctx.tools.specs(),
    signal,
    idleTimeoutMs: ctx.config.retry.stream_idle_timeout_ms,
  };
  const search = other === undefined ? providerSearchOffer(ctx) : undefined;
  // The server tool takes the name (a backend web_search would clash); with no search left,
  // neither is offered.
  if (search || searchesLeft(ctx) === 0) {
    request.tools = request.tools.filter((tool) => tool.name !== WEB_SEARCH);
  }
  if (search) request.webSearch = search;
  if (onDelta) request.onDelta = onDelta;
  if (onToolInputStart) request.onToolInputStart = onToolInputStart;
  const thinking = ctx.effort.requestThinking(ctx.provider, ctx.config.thinking.budget_tokens);
  if (thinking) request.thinking = thinking;
  return request;
}

function recordMessage(ctx: RunContext, turn: number, step: number, part: MessagePart): void {
  // The log stores canonical JSON (sorted keys), so a resumed session replays sorted keys;
  // sorting here too makes this run's next request byte-identical to a resumed one's.
  const content = JSON.parse(canonicalJson(part.content)) as JsonValue[];
  ctx.writer.append({
    type: "assistant/message",
    turn,
    step,
    provider: ctx.provider.name,
    model: ctx.model,
    api: part.api,
    request_id: part.requestId,
    stop_reason: part.stopReason,
    content,
  });
  const lookup = { provider: ctx.provider.name, overrides: ctx.config.models };
  const cost = costOf(ctx.model, part.usage, lookup);
  ctx.writer.append({ type: "step/end", turn, step, usage: part.usage, cost });
}

function failureOf(message: string, requestId: string | null, partial: boolean): ProviderFailure {
  return { message, status: null, requestId, retryable: false, partial };
}
