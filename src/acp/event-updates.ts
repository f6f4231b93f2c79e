// The ACP projection of the session log: each durable event becomes the `session/update`s an
// editor shows, from the event alone (and the calls seen before it), so a live turn and a
// session replayed by `session/load` give the same updates. Text and thinking chunks by block
// kind, tool calls from their static presenters, results with the policy-processed content and
// diffs, the todo list as a plan, usage per step, the title (the first prompt's, or the name
// `session/title` gives) as session info. Used by acp-session.ts, live and on replay.
import { resolve } from "node:path";
import type { SessionUpdate, ToolCallContent, ToolCallLocation } from "@agentclientprotocol/sdk";
import { callText } from "../present/call-text.ts";
import { ToolPresentations } from "../present/tool-presentations.ts";
import { contextWindowOf, type ModelLookup } from "../providers/index.ts";
import { terminalSafe, terminalSafeLine } from "../runner/index.ts";
import type { EventOf, JsonValue, SessionEvent } from "../session/events.ts";
import type { CallPresentation, ResultPresentation } from "../tools/presentation.ts";
import { titleOf } from "./session-title.ts";

/** Tokens the context of a model holds, or null when unknown. */
export type ContextWindow = (model: string, provider: string) => number | null;

export class EventUpdates {
  private readonly presentations = new ToolPresentations();
  /** Calls already announced as `tool_call` (by an ask, before their `tool/call`). */
  private readonly announced = new Set<string>();
  /** The session's workspace: ACP paths are absolute, recorded arguments may be relative. */
  private cwd = "/";
  private provider = "";
  private model = "";
  private cost = 0;
  private costKnown = true;
  /** Whether the session has a title yet: its first prompt's, or a name it was given. */
  private titled = false;

  constructor(private readonly contextWindow: ContextWindow) {}

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
  announce(callId: string, name: string, args: JsonValue, shown: CallPresentation): ToolCallUpdate {
    this.announced.add(callId);
    return toolCall(callId, name, args, this.absolute(shown));
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
        return [...this.prompted(event.text, replaying), ...this.firstTitle(event.text)];
      case "steering/message":
        return this.prompted(event.text, replaying);
      case "session/title":
        this.titled = true;
        return [{ sessionUpdate: "session_info_update", title: titleOf(event.title) }];
      case "assistant/chunk":
        if (event.kind === "tool_input") return [];
        return [
          chunk(event.kind === "text" ? "agent_message_chunk" : "agent_thought_chunk", event.delta),
        ];
      case "tool/call":
        return this.call(event);
      case "tool/result":
        return [this.result(event)];
      case "todo/update":
        return [planOf(event)];
      case "step/end":
        return [this.usage(event)];
      default:
        return [];
    }
  }

  /** The user's own prompts are shown only on replay: a live client has them already. */
  private prompted(text: string, replaying: boolean): SessionUpdate[] {
    return replaying ? [chunk("user_message_chunk", text)] : [];
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
      updates.push(toolCall(event.call_id, event.name, event.arguments, this.absolute(shown)));
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
