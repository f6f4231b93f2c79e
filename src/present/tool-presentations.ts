// The presentation of each tool call and result in a stream of session events, for surfaces:
// a `tool/call` is presented from its effective (recorded) arguments, and its `tool/result`
// from the same arguments, found by call id. Tools are looked up by name in what the session
// runs; a tool it does not know gets the plain fallback.
import type { EventOf, SessionEvent } from "../session/events.ts";
import {
  type CallPresentation,
  presentToolCall,
  presentToolResult,
  type ResultPresentation,
} from "../tools/presentation.ts";
import type { AnyTool } from "../tools/types.ts";

export type ToolLookup = (name: string) => AnyTool | undefined;

export class ToolPresentations {
  /** Calls whose result has not been seen yet: name and effective arguments. */
  private readonly open = new Map<string, EventOf<"tool/call">>();

  constructor(private lookup: ToolLookup = () => undefined) {}

  /** Presents later events with the tools of the session that is running. */
  useTools(lookup: ToolLookup): void {
    this.lookup = lookup;
  }

  /** The presentation of a tool call or result; undefined for every other event. */
  of(event: SessionEvent): CallPresentation | ResultPresentation | undefined {
    if (event.type === "tool/call") {
      this.open.set(event.call_id, event);
      return presentToolCall(this.lookup(event.name), event.name, event.arguments);
    }
    if (event.type !== "tool/result") return undefined;
    const call = this.open.get(event.call_id);
    this.open.delete(event.call_id);
    const result = { content: event.content, isError: event.is_error };
    return presentToolResult(call && this.lookup(call.name), call?.arguments, result);
  }
}
