// The presentation of each tool call and result in a stream of session events, from the
// events alone: a `tool/call` is presented from its effective (recorded) arguments, and its
// `tool/result` from the same arguments, found by call id. The built-in tools' static
// presenters (tools/presenters.ts) need no tool object, so a stored log renders as it ran;
// a running session may add presenters for its own tools (external command tools), and any
// other name gets the plain fallback. Used by exec's stream-json and text lines (text-output.ts).
import type { EventOf, SessionEvent } from "../session/events.ts";
import {
  type CallPresentation,
  presentToolCall,
  presentToolResult,
  type ResultPresentation,
  type ToolPresenter,
} from "../tools/presentation.ts";
import { builtinPresenter } from "../tools/presenters.ts";

export type PresenterLookup = (name: string) => ToolPresenter | undefined;

export class ToolPresentations {
  /** Calls whose result has not been seen yet: name and effective arguments. */
  private readonly open = new Map<string, EventOf<"tool/call">>();

  /** `session`: presenters of the running session's tools that have no static one. */
  constructor(private session: PresenterLookup = () => undefined) {}

  /** Presents later calls of tools without a static presenter with the running session's. */
  useSessionPresenters(lookup: PresenterLookup): void {
    this.session = lookup;
  }

  /** The presentation of a tool call or result; undefined for every other event. */
  of(event: EventOf<"tool/call">): CallPresentation;
  of(event: EventOf<"tool/result">): ResultPresentation;
  of(event: SessionEvent): CallPresentation | ResultPresentation | undefined;
  of(event: SessionEvent): CallPresentation | ResultPresentation | undefined {
    if (event.type === "tool/call") {
      this.open.set(event.call_id, event);
      return presentToolCall(this.presenterOf(event.name), event.name, event.arguments);
    }
    if (event.type !== "tool/result") return undefined;
    const call = this.open.get(event.call_id);
    this.open.delete(event.call_id);
    const result = { content: event.content, isError: event.is_error };
    return presentToolResult(call && this.presenterOf(call.name), call?.arguments, result);
  }

  private presenterOf(name: string): ToolPresenter | undefined {
    return builtinPresenter(name) ?? this.session(name);
  }
}
