// The provider adapter contract: one stream function per wire format that turns an SDK stream
// into StreamParts. A stream function never throws once called: every failure, including a
// cut stream, becomes a final `error` part. Retries are the loop's job, not the adapter's.
import type { HistoryMessage } from "../session/derive.ts";
import type { EventOf, JsonValue, Usage } from "../session/events.ts";

export type ProviderApi = Exclude<EventOf<"assistant/message">["api"], "scripted">;

/** A configured provider endpoint, already resolved from config and environment. */
export interface ProviderConfig {
  /** The config name, the part before the slash in `provider/model`. */
  name: string;
  kind: ProviderApi;
  baseUrl?: string;
  /** Passed explicitly to the SDK; never logged, printed or persisted. */
  apiKey: string;
  headers?: Record<string, string>;
  /** Azure OpenAI's `api-version`: the OpenAI adapters then speak Azure's routes. */
  apiVersion?: string;
  /** Claude on a cloud platform: the Anthropic adapter then uses that platform's SDK. */
  cloud?: CloudPlatform;
}

/** Bedrock's or Vertex's settings and the credentials read from the environment, if any. */
export type CloudPlatform =
  | {
      platform: "bedrock";
      region: string;
      /** Absent: the AWS SDK's default chain (profile, SSO, instance role). */
      credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
    }
  | {
      platform: "vertex";
      region: string;
      projectId: string;
      /** Absent: Google's Application Default Credentials. */
      accessToken?: string;
    };

/** A tool as the model sees it. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, JsonValue>;
}

export interface ProviderRequest {
  /** The model id without the provider prefix. */
  model: string;
  system: string;
  messages: HistoryMessage[];
  tools: ToolSpec[];
  maxOutputTokens?: number;
  /**
   * Offer the provider's own web search tool (Anthropic's `web_search_20250305`, the Responses
   * `web_search` tool) for at most `maxUses` searches in this request; absent: not offered.
   * Responses has no per-request limit, so there the loop checks the cap between requests.
   */
  webSearch?: { maxUses: number };
  /**
   * Extended thinking / reasoning; absent means off. Anthropic reads the token budget, the
   * OpenAI formats the effort level (absent: the level the budget reads as).
   */
  thinking?: { budgetTokens: number; effort?: ReasoningEffort };
  signal: AbortSignal;
  /**
   * When set, each streamed delta is handed here synchronously as it arrives, in order, and
   * the stream yields no `delta` parts (only start, message and error). Deltas are the bulk of
   * a stream; a call per delta costs no promise or iterator result the way a yielded part does.
   */
  onDelta?: DeltaSink;
  /**
   * When set, the start of each tool call's input (its block, call id and tool name) is handed
   * here synchronously, before that block's first delta, and the stream yields no
   * `tool_input_start` parts. Set it with `onDelta`: without it the starts are yielded as parts
   * in order with the `delta` parts; with `onDelta` alone they are dropped.
   */
  onToolInputStart?: ToolInputStartSink;
  /**
   * Abort the request, as a retryable failure, once nothing (response, event or delta) has
   * arrived for this long; absent means no limit.
   */
  idleTimeoutMs?: number;
}

/** A reasoning effort a request carries (OpenAI's `reasoning.effort` / `reasoning_effort`). */
export type ReasoningEffort = "minimal" | "low" | "medium" | "high";

export type BlockKind = "text" | "thinking" | "tool_input";

/** Receives one streamed delta of a content block. */
export type DeltaSink = (block: number, kind: BlockKind, delta: string) => void;

/** A tool call's input began to stream: its content block, call id and tool name. */
interface ToolInputStart {
  block: number;
  id: string;
  name: string;
}

/** Receives the start of a tool call's input, before the first delta of its block. */
export type ToolInputStartSink = (start: ToolInputStart) => void;

/** A tool call the model made, with its raw (unparsed) JSON arguments. */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
  /**
   * The response stopped at its output limit while this call (its last) was being written:
   * its arguments may be cut short, so it must not run (output-limit.ts).
   */
  cut?: true;
  /**
   * A Responses `custom_tool_call`: the model called a free-form tool, and `arguments` is its
   * raw input string, not JSON. codewhale declares no custom tools, so the loop answers it with
   * an error result (agent/tool-calls.ts).
   */
  custom?: true;
}

export interface ProviderFailure {
  message: string;
  status: number | null;
  requestId: string | null;
  /** 429, 5xx, overloaded, or a connection failure: worth another try. */
  retryable: boolean;
  /** From a `retry-after` header, when the server sent one. */
  retryAfterMs?: number;
  /** True when some content had streamed before the failure. */
  partial: boolean;
}

export type StreamPart =
  | { type: "start"; requestId: string | null }
  | { type: "delta"; block: number; kind: BlockKind; delta: string }
  | ({ type: "tool_input_start" } & ToolInputStart)
  | {
      type: "message";
      api: ProviderApi;
      /** Provider-native items, verbatim, for `assistant/message.content`. */
      content: JsonValue[];
      stopReason: string | null;
      requestId: string | null;
      toolCalls: ModelToolCall[];
      usage: Usage;
    }
  | { type: "error"; error: ProviderFailure };

export type StreamFunction = (
  config: ProviderConfig,
  request: ProviderRequest,
) => AsyncIterable<StreamPart>;
