// The ACP projection of the session log: each durable event becomes the `session/update`s an
// editor shows, from the event alone (and the calls seen before it), so a live turn and a
// session replayed by `session/load` give the same updates: chunks by block kind, tool calls
// from their presenters, results with diffs, the provider's web searches with their sources
// (web-search-updates.ts), the todo list as a plan, usage, the title; a replayed prompt with its
// images. Live
// only, a call still being written (`tool/input-start`) shows early. Used by acp-session.ts.
import { resolve } from "node:path";
import type { SessionUpdate, ToolCallContent, ToolCallLocation } from "@agentclientprotocol/sdk";
import type { ToolInputStarted } from "../agent/index.ts";
import { callText } from "../present/call-text.ts";
import { StreamingInput } from "../present/streaming-input.ts";
import { ToolPresentations } from "../present/tool-presentations.ts";
import { contextWindowOf, type ModelLookup } from "../providers/index.ts";
import { terminalSafe, terminalSafeLine } from "../runner/index.ts";
import type { EventOf, JsonValue, SessionEvent } from "../session/events.ts";
import { type ImageRef, readStoredImage } from "../session/images.ts";
import type { CallPresentation, ResultPresentation } from "../tools/presentation.ts";
import { builtinPresenter } from "../tools/presenters.ts";
import { titleOf } from "./session-title.ts";
import { webSearchUpdates } from "./web-search-updates.ts";

/** How many of a streaming input's last lines its pending `tool_call` shows. */
const STREAMING_LINES = 20;

/** A call whose input streams, shown as a pending `tool_call` until its `tool/call`. */
interface StreamingCall {
  callId: string;
  turn: number;
  step: number;
  input: StreamingInput;
}

/** Tokens the context of a model holds, or null when unknown. */
export type ContextWindow = (model: string, provider: string) => number | null;

export class EventUpdates {
  private readonly presentations = new ToolPresentations();
  /** Calls already announced as `tool_call` (by an ask, before their `tool/call`). */
  private readonly announced = new Set<string>();
  /** Calls being written, by `turn:step:block` (their `tool_input` chunks' key). */
  private readonly streaming = new Map<string, StreamingCall>();
  /** The session's workspace: ACP paths are absolute, recorded arguments may be relative. */
  private cwd = "/";
  private provider = "";
  private model = "";
  private cost = 0;
  private costKnown = true;
  /** Whether the session has a title yet: its first prompt's, or a name it was given. */
  private titled = false;

  /**
   * `imageDir`: where the session's prompt images are stored (session/images.ts), read when a
   * replayed prompt names some; without it a replay shows the text alone.
   */
  constructor(
    private readonly contextWindow: ContextWindow,
    private readonly imageDir?: string,
  ) {}

  /** A session's own presenters for tools without a static one (external tools). */
  get tools(): ToolPresentations {
    return this.presentations;
  }

  /**
   * The `tool_call` for a call about to be asked about: sent before the permission request,
   * with what its `tool/call` would show. Every `tool_call` (announced, live or replayed)
   * carries the whole call as its content (every line of a command, every argument, escaped:
   * a title is one line, cut). Its `tool/call` then adds only the status.
   */
  announce(callId: string, name: string, args: JsonValue, shown: CallPresentation): CallShown {
    this.announced.add(callId);
    return this.whole(callId, toolCall(callId, name, args, this.absolute(shown)));
  }

  /**
   * A call the model has begun to write (`tool/input-start`, live only): a `tool_call`,
   * pending, named by its tool; its `tool_input` chunks then update its content, and its
   * `tool/call` (or ask) completes it with a `tool_call_update`.
   */
  inputStart(start: ToolInputStarted): SessionUpdate {
    const { callId, turn, step, tool } = start;
    const input = new StreamingInput(STREAMING_LINES);
    this.streaming.set(`${turn}:${step}:${start.block}`, { callId, turn, step, input });
    return {
      sessionUpdate: "tool_call",
      toolCallId: callId,
      title: terminalSafeLine(tool),
      kind: builtinPresenter(tool)?.kind ?? "other",
      status: "pending",
      name: tool,
      content: [],
    };
  }

  /**
   * The updates one durable event gives, in order (often none). The user's own prompts are
   * shown only when `replaying` (`session/load`): a live client has them already.
   */
  of(event: SessionEvent, replaying = false): SessionUpdate[] {
    switch (event.type) {
      case "session/start":
        this.cwd = event.cwd;
        this.provider = event.provider;
        this.model = event.model;
        return [];
      case "session/model":
        this.provider = event.provider;
        this.model = event.model;
        return [];
      case "user/message":
        return [
          ...this.prompted(event.text, replaying),
          ...(replaying ? this.promptImages(event.images ?? []) : []),
          ...this.firstTitle(event.text),
        ];
      case "steering/message":
        return this.prompted(event.text, replaying);
      case "session/title":
        this.titled = true;
        return [{ sessionUpdate: "session_info_update", title: titleOf(event.title) }];
      case "assistant/chunk":
        if (event.kind === "tool_input") return this.streamed(event);
        return [
          chunk(event.kind === "text" ? "agent_message_chunk" : "agent_thought_chunk", event.delta),
        ];
      case "assistant/message":
        return webSearchUpdates(event);
      case "tool/call":
        return this.call(event);
      case "tool/result":
        return [this.result(event)];
      case "todo/update":
        return [planOf(event)];
      case "step/end":
        return [this.usage(event)];
      case "step/failed":
        // The calls this request was writing will not come.
        return this.unfinished((call) => call.turn === event.turn && call.step === event.step);
      case "turn/end":
        return this.unfinished(() => true);
      default:
        return [];
    }
  }

  /** The user's own prompts are shown only on replay: a live client has them already. */
  private prompted(text: string, replaying: boolean): SessionUpdate[] {
    return replaying ? [chunk("user_message_chunk", text)] : [];
  }

  /**
   * A replayed prompt's images, each an image chunk read back from the session's store; one
   * missing or not matching its hash is a text chunk saying so.
   */
  private promptImages(images: readonly ImageRef[]): SessionUpdate[] {
    const dir = this.imageDir;
    if (dir === undefined) return [];
    return images.map((image) => {
      const stored = readStoredImage(dir, image.sha256);
      if (!stored.ok) {
        return chunk(
          "user_message_chunk",
          `[image ${image.sha256.slice(0, 12)}: ${stored.problem}]`,
        );
      }
      return {
        sessionUpdate: "user_message_chunk",
        content: {
          type: "image",
          mimeType: image.media_type,
          data: stored.data.toString("base64"),
        },
      };
    });
  }

  /** The first prompt titles a session that has no title yet. */
  private firstTitle(text: string): SessionUpdate[] {
    if (this.titled) return [];
    this.titled = true;
    return [{ sessionUpdate: "session_info_update", title: titleOf(text) }];
  }

  private call(event: EventOf<"tool/call">): SessionUpdate[] {
    const shown = this.presentations.of(event) as CallPresentation;
    const updates: SessionUpdate[] = [];
    if (!this.announced.delete(event.call_id)) {
      const whole = toolCall(event.call_id, event.name, event.arguments, this.absolute(shown));
      updates.push(this.whole(event.call_id, whole));
    }
    if (event.decision.outcome === "allow") {
      updates.push({
        sessionUpdate: "tool_call_update",
        toolCallId: event.call_id,
        status: "in_progress",
      });
    }
    return updates;
  }

  /** The whole call: a `tool_call`, or its update when it was shown while being written. */
  private whole(callId: string, call: ToolCallUpdate): CallShown {
    for (const [key, streaming] of this.streaming) {
      if (streaming.callId !== callId) continue;
      this.streaming.delete(key);
      // Still pending, as its `tool_call` said: the status is not repeated.
      const { status: _, ...whole } = call;
      return { ...whole, sessionUpdate: "tool_call_update" };
    }
    return call;
  }

  /** A streaming call's content: the last lines of its input so far, escaped. */
  private streamed(event: EventOf<"assistant/chunk">): SessionUpdate[] {
    const call = this.streaming.get(`${event.turn}:${event.step}:${event.block}`);
    if (!call) return [];
    call.input.push(event.delta);
    const text = fenced("", call.input.tail());
    return [
      {
        sessionUpdate: "tool_call_update",
        toolCallId: call.callId,
        content: [{ type: "content", content: { type: "text", text } }],
      },
    ];
  }

  /** The streaming calls that will not come end as failed. */
  private unfinished(which: (call: StreamingCall) => boolean): SessionUpdate[] {
    const updates: SessionUpdate[] = [];
    for (const [key, call] of this.streaming) {
      if (!which(call)) continue;
      this.streaming.delete(key);
      updates.push({
        sessionUpdate: "tool_call_update",
        toolCallId: call.callId,
        status: "failed",
      });
    }
    return updates;
  }

  private result(event: EventOf<"tool/result">): SessionUpdate {
    const shown = this.presentations.of(event) as ResultPresentation;
    const content: ToolCallContent[] = [];
    if (shown.diff && !event.is_error) {
      const { path, oldText, newText } = shown.diff;
      content.push({ type: "diff", path: this.path(path), oldText, newText });
    }
    content.push({ type: "content", content: { type: "text", text: event.content } });
    // An MCP result's images (checked and bounded when the result was made) follow its text.
    for (const block of event.blocks ?? []) {
      content.push({
        type: "content",
        content: { type: "image", mimeType: block.mime_type, data: block.data },
      });
    }
    return {
      sessionUpdate: "tool_call_update",
      toolCallId: event.call_id,
      status: event.is_error ? "failed" : "completed",
      content,
    };
  }

  private absolute(shown: CallPresentation): CallPresentation {
    const locations = shown.locations.map((location) => ({
      ...location,
      path: this.path(location.path),
    }));
    return { ...shown, locations };
  }

  /**
   * A path from the call as the editor is sent it: absolute, normalised (no `..` left to hide
   * where it leads) and through the one escaper, like every other text from outside.
   */
  private path(path: string): string {
    return terminalSafeLine(resolve(this.cwd, path));
  }

  /** Context used by the step's request (input, cache and output) and the session's cost. */
  private usage(event: EventOf<"step/end">): SessionUpdate {
    const { usage } = event;
    if (event.cost === null) this.costKnown = false;
    else this.cost += event.cost;
    const used = usage.input + usage.cache_read + usage.cache_write + usage.output;
    const size = this.contextWindow(this.model, this.provider) ?? 0;
    return {
      sessionUpdate: "usage_update",
      used,
      size,
      ...(this.costKnown ? { cost: { amount: this.cost, currency: "USD" } } : {}),
    };
  }
}

/** The context window codewhale's model table knows for a model (config overrides included). */
export function contextWindowFrom(overrides: ModelLookup["overrides"]): ContextWindow {
  return (model: string, provider: string) =>
    contextWindowOf(model, { provider, ...(overrides ? { overrides } : {}) });
}

function chunk(
  kind: "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk",
  text: string,
): SessionUpdate {
  return { sessionUpdate: kind, content: { type: "text", text: terminalSafe(text) } };
}

/** A `tool_call` update: the call's presentation, its effective arguments, pending. */
export type ToolCallUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" }>;
/** The whole call, as a `tool_call` or (shown while it was written) a `tool_call_update`. */
type CallShown = Extract<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>;

function toolCall(
  callId: string,
  name: string,
  args: JsonValue,
  shown: CallPresentation,
): ToolCallUpdate {
  const locations: ToolCallLocation[] = shown.locations.map((location) => ({
    path: location.path,
    ...(location.line === undefined ? {} : { line: location.line }),
  }));
  return {
    sessionUpdate: "tool_call",
    toolCallId: callId,
    title: terminalSafeLine(shown.title),
    kind: shown.kind,
    status: "pending",
    rawInput: args,
    name,
    locations,
    content: wholeCallContent(args),
  };
}

/** The whole call as the `tool_call`'s content, live and on replay alike. */
function wholeCallContent(args: JsonValue): ToolCallContent[] {
  return [{ type: "content", content: { type: "text", text: wholeCallMarkdown(args) } }];
}

/** The whole call as Markdown: a command in a `sh` block, the other arguments in a `json` one. */
function wholeCallMarkdown(args: JsonValue): string {
  const { command, rest } = callText(args);
  const blocks = [];
  if (command) blocks.push(fenced("sh", command));
  if (rest.length > 0) blocks.push(fenced("json", rest));
  return blocks.join("\n\n");
}

/** A fenced block longer than any run of backticks in its lines, so no line can close it. */
function fenced(language: string, lines: string[]): string {
  const longest = Math.max(2, ...lines.map(maxRun));
  const fence = "`".repeat(longest + 1);
  return [`${fence}${language}`, ...lines, fence].join("\n");
}

function maxRun(line: string): number {
  return Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
}

function planOf(event: EventOf<"todo/update">): SessionUpdate {
  return {
    sessionUpdate: "plan",
    entries: event.todos.map((todo) => ({
      content: todo.content,
      status: todo.status,
      priority: "medium",
    })),
  };
}
