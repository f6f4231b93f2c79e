// A `task` call (a subagent, docs/subagents.md) as a card in the transcript: the call's own card
// (tool-card.ts) with the child session's tool cards nested under it, indented, live while it
// runs (its latest few), then collapsed to one line (how many calls, its cost, how it ended);
// Ctrl-O shows every call of the child and the whole result. Fed the child's durable events by
// transcript.ts (`subagent/event` live, the child's log on a resume).
import { truncateToWidth } from "@mariozechner/pi-tui";
import { formatCost, plural } from "../present/format.ts";
import type { ToolPresentations } from "../present/tool-presentations.ts";
import { terminalSafeLine as safe } from "../runner/index.ts";
import type { EventOf, SessionEvent } from "../session/events.ts";
import type { CallPresentation, ResultPresentation } from "../tools/presentation.ts";
import type { Theme } from "./theme.ts";
import { type CallCard, ToolCard } from "./tool-card.ts";

/** How many of a running child's latest calls the card shows. */
const LIVE_CHILD_CARDS = 4;
/** The indentation of a child's cards under the task call. */
const INDENT = "    ";

export class SubagentCard implements CallCard {
  private readonly own: ToolCard;
  /** The child's calls, oldest first; `running` by call id until their result. */
  private readonly calls: ToolCard[] = [];
  private readonly running = new Map<string, ToolCard>();
  private childId: string | undefined;
  private cost: number | null = null;
  /** How the child's last turn ended; undefined while it runs. */
  private ended: string | undefined;
  private done = false;
  private cache: { width: number; lines: string[] } | undefined;

  /** `presentations`: the child's own (its call ids are its own). */
  constructor(
    call: EventOf<"tool/call">,
    presentation: CallPresentation,
    private readonly theme: Theme,
    private readonly presentations: ToolPresentations,
    private readonly agentType: string | undefined,
  ) {
    this.own = new ToolCard(call, presentation, theme);
  }

  get callId(): string {
    return this.own.callId;
  }

  get title(): string {
    return this.own.title;
  }

  /** True once some event of the child has been seen (live or read from its log). */
  get seenChild(): boolean {
    return this.childId !== undefined;
  }

  /** One durable event of the child's session. */
  child(event: SessionEvent): void {
    switch (event.type) {
      case "session/start":
        this.childId = event.session_id;
        break;
      case "tool/call": {
        const presentation = this.presentations.of(event);
        const card = new ToolCard(event, presentation, this.theme);
        this.calls.push(card);
        this.running.set(event.call_id, card);
        break;
      }
      case "tool/result": {
        const presentation = this.presentations.of(event);
        this.running.get(event.call_id)?.finish(event, presentation);
        this.running.delete(event.call_id);
        break;
      }
      case "step/end":
      case "context/compaction":
        if (event.cost !== null) this.cost = (this.cost ?? 0) + event.cost;
        break;
      case "turn/end":
        this.ended = event.reason;
        break;
      default:
        return;
    }
    this.invalidate();
  }

  /** A running call of the child reported its output tail. */
  childProgress(childCallId: string, tail: string): void {
    this.running.get(childCallId)?.progress(tail);
    this.invalidate();
  }

  finish(event: EventOf<"tool/result">, presentation: ResultPresentation): void {
    this.own.finish(event, presentation);
    this.done = true;
    // A call cut short (a crash, then a resume) or failed before its child ended says so.
    if (this.ended === undefined && event.interrupted) this.ended = "interrupted";
    else if (this.ended === undefined && event.is_error) this.ended = "failed";
    this.invalidate();
  }

  /** The call's progress lists the child's calls, which the nested cards show already. */
  progress(_tail: string): void {}

  toggle(): void {
    this.own.toggle();
    this.invalidate();
  }

  setFocused(focused: boolean): void {
    this.own.setFocused(focused);
    this.invalidate();
  }

  invalidate(): void {
    this.cache = undefined;
    this.own.invalidate();
  }

  render(width: number): string[] {
    if (this.cache?.width === width) return this.cache.lines;
    const [head = "", ...rest] = this.own.render(width);
    const fit = (line: string) => truncateToWidth(line, Math.max(1, width));
    const summary = fit(this.summary());
    let lines: string[];
    if (this.own.isExpanded) lines = [head, summary, ...this.nested(width, this.calls), ...rest];
    else if (!this.done) lines = [head, summary, ...this.nested(width, this.latest())];
    else lines = [head, summary, ...rest];
    this.cache = { width, lines };
    return lines;
  }

  /** The latest calls of a running child, and always the ones still running. */
  private latest(): ToolCard[] {
    const shown = this.calls.slice(-LIVE_CHILD_CARDS);
    const older = this.calls.slice(0, -LIVE_CHILD_CARDS).filter((c) => this.running.has(c.callId));
    return [...older, ...shown];
  }

  private nested(width: number, cards: readonly ToolCard[]): string[] {
    const inner = Math.max(1, width - INDENT.length);
    const hidden = this.own.isExpanded || this.done ? 0 : this.calls.length - cards.length;
    const lines =
      hidden > 0 ? [`${INDENT}${this.theme.dim(`… ${plural(hidden, "earlier call")}`)}`] : [];
    for (const card of cards) for (const line of card.render(inner)) lines.push(`${INDENT}${line}`);
    return lines;
  }

  /** "⎿ subagent (explore) · 3 tool calls · $0.0123 · done", one line. */
  private summary(): string {
    const { theme } = this;
    const who = `subagent${this.agentType ? ` (${safe(this.agentType)})` : ""}`;
    const parts = [who, plural(this.calls.length, "tool call")];
    if (this.cost !== null) parts.push(formatCost(this.cost));
    if (!this.done) parts.push(this.running.size > 0 ? "running a call" : "working");
    else if (this.ended === undefined || this.ended === "completed") parts.push("done");
    else parts.push(`stopped: ${safe(this.ended)}`);
    if (this.done && !this.own.isExpanded && this.calls.length > 0) {
      parts.push("Ctrl-O shows its calls");
    }
    if (this.own.isExpanded && this.childId) parts.push(`session ${safe(this.childId)}`);
    return `  ${theme.dim(`⎿ ${parts.join(" · ")}`)}`;
  }
}
