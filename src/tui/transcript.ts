// A session's transcript as pi-tui components, from `session/event` alone: prompts, the answer
// as Markdown (transcript-stream.ts), thinking (dimmed or hidden), tool cards (a running one's
// output tail; Ctrl-O expands the focused one or the newest, Alt-Up/Alt-Down move the focus
// between cards), a proposed plan and its decision (plan-block.ts), the provider's web
// searches with their sources, one line for a refused prompt or a turn that did not complete
// (retries wait on the status line). Live and replayed events go through `observe`, so a
// resumed session shows what was shown live; a call the model is still writing shows as
// a pending card (`inputStart`, live only) until its card takes its place. A `task` call's card
// nests its subagent's cards (subagent-card.ts), fed by `subagent`, or from the child's log when
// the session is replayed. Owned by app.ts; other lines via `notice`.
import { Container, Spacer, Text } from "@mariozechner/pi-tui";
import type { ChildProgress, ToolInputStarted } from "../agent/index.ts";
import { oneLine } from "../present/tool-line.ts";
import type { ToolPresentations } from "../present/tool-presentations.ts";
import { sourceLine, webSearchView } from "../present/web-search-lines.ts";
import { terminalSafe as safe } from "../runner/index.ts";
import type { EventOf, SessionEvent } from "../session/events.ts";
import { imageSize } from "../session/images.ts";
import type { CallPresentation, ResultPresentation } from "../tools/presentation.ts";
import { PendingToolCard } from "./pending-tool-card.ts";
import { planBlock, planDecisionLine } from "./plan-block.ts";
import { shellNoteText, USER_SHELL_SOURCE } from "./shell-command.ts";
import { SubagentCard } from "./subagent-card.ts";
import type { Theme } from "./theme.ts";
import { ThinkingBlock } from "./thinking-block.ts";
import { type CallCard, ToolCard } from "./tool-card.ts";
import { StreamedMarkdown } from "./transcript-stream.ts";

/** The results shown under each web search (the rest are counted). */
const SOURCES_SHOWN = 5;

/** What only changes how the transcript looks (`/thinking`, `[display] show_thinking`). */
export interface DisplayState {
  showThinking: boolean;
}

/** A call being written: its card and the slot the real card will take. */
interface PendingCall {
  callId: string;
  turn: number;
  step: number;
  card: PendingToolCard;
  slot: Container;
}

/** A subagent's event as the parent's bus carries it (`subagent/event`). */
interface ChildEvent {
  callId: string;
  sessionId: string;
  event: SessionEvent;
}

/** How a `task` call's card learns of its child: presentations of its own, its stored log. */
interface ChildViews {
  presentations(): ToolPresentations;
  /** The events of a stored child session; undefined when its log cannot be read. */
  events(sessionId: string): readonly SessionEvent[] | undefined;
}

type Streamed =
  | { kind: "text"; view: StreamedMarkdown }
  | { kind: "thinking"; view: ThinkingBlock };

export class Transcript {
  readonly root = new Container();
  private readonly streams = new Map<string, Streamed>();
  private readonly cards = new Map<string, CallCard>();
  /** The `task` calls' cards, by call id: their child's events go there. */
  private readonly subagents = new Map<string, SubagentCard>();
  /** Calls being written, by `turn:step:block` (their `tool_input` chunks' key). */
  private readonly pending = new Map<string, PendingCall>();
  /** The turn whose request failed for good (its turn/end says so). */
  private failedTurn: number | undefined;
  /** Every card, oldest first: Alt-Up/Alt-Down walk them. */
  private readonly order: CallCard[] = [];
  /** The focused card's place in `order`; none: Ctrl-O expands the newest. */
  private focusAt: number | undefined;
  /** The session whose first line `announce` showed before its `session/start` came. */
  private announced: string | undefined;

  /** `presentations`: how calls are shown (present/tool-presentations.ts), made by the caller. */
  constructor(
    private readonly theme: Theme,
    private readonly display: DisplayState,
    private readonly presentations: ToolPresentations,
    private readonly children?: ChildViews,
  ) {}

  /** Adds what one durable event shows. */
  observe(event: SessionEvent): void {
    const { theme } = this;
    switch (event.type) {
      case "session/start":
        if (event.session_id === this.announced) return;
        this.sessionLine(event.session_id, event.provider, event.model);
        return;
      case "user/message":
        if (event.blocked) {
          this.line(
            theme.warn(safe(`prompt refused by ${event.blocked.by}: ${event.blocked.reason}`)),
          );
          return;
        }
        this.prompt(safe(event.text));
        for (const image of event.images ?? []) {
          this.line(theme.dim(`[image ${image.media_type}, ${imageSize(image.bytes)}]`));
        }
        return;
      case "steering/message":
        this.prompt(safe(event.text), " (steering)");
        return;
      case "assistant/chunk":
        this.chunk(event);
        return;
      case "assistant/message":
        this.webSearches(event);
        return;
      case "step/failed":
        // A retry waits on the status line; a request that failed for good ends the turn,
        // whose one line (turnEnd) says so. The calls it was writing will not come.
        this.dropPending((call) => call.turn === event.turn && call.step === event.step);
        if (!event.will_retry) this.failedTurn = event.turn;
        return;
      case "tool/call":
        this.toolCall(event);
        return;
      case "tool/result":
        this.toolResult(event);
        return;
      case "context/note":
        if (event.source === USER_SHELL_SOURCE) {
          this.line(shellNoteText(event.text, theme));
          return;
        }
        this.line(
          theme.dim(safe(`note from ${event.source}: ${event.text.split("\n", 1)[0] ?? ""}`)),
        );
        return;
      case "turn/end":
        this.dropPending(() => true);
        this.turnEnd(event);
        return;
      case "todo/update":
        this.todos(event);
        return;
      case "plan/proposed":
        this.root.addChild(planBlock(event, theme));
        return;
      case "plan/decided":
        this.line(planDecisionLine(event, theme));
        return;
      case "session/model":
        this.line(theme.dim(safe(`model: ${event.provider}/${event.model}`)));
        return;
      case "session/effort":
        this.line(theme.dim(`effort: ${event.effort}`));
        return;
      case "session/recovered":
        this.line(theme.warn(`the log's torn last line was cut (${event.dropped_bytes} bytes)`));
        return;
      default:
        return;
    }
  }

  /**
   * A call the model has begun to write (`tool/input-start`): a pending card, fed the call's
   * `tool_input` chunks, until its `tool/call` puts the real card in its place.
   */
  inputStart(start: ToolInputStarted): void {
    const card = new PendingToolCard(start.tool, this.theme);
    const slot = new Container();
    slot.addChild(new Spacer(1));
    slot.addChild(card);
    this.root.addChild(slot);
    const { callId, turn, step } = start;
    this.pending.set(`${turn}:${step}:${start.block}`, { callId, turn, step, card, slot });
  }

  /**
   * A call that asks before it runs: its pending card goes, as the ask panel shows the whole
   * call (a streamed tail beside it would show lines the panel has scrolled past).
   */
  asked(callId: string): void {
    this.dropPending((call) => call.callId === callId);
  }

  /** A running call's output tail (`tool/progress`, already through the output policy). */
  progress(callId: string, tail: string): void {
    this.cards.get(callId)?.progress(tail);
  }

  /** An event of a `task` call's subagent session: shown in that call's card. */
  subagent(child: ChildEvent): void {
    this.subagents.get(child.callId)?.child(child.event);
  }

  /** A running call of a `task` call's subagent reported its output tail. */
  subagentProgress(progress: ChildProgress): void {
    this.subagents.get(progress.callId)?.childProgress(progress.childCallId, progress.tail);
  }

  /** Ctrl-O: expands the focused tool card (else the newest), or collapses it; false: none. */
  toggleCard(): boolean {
    const card = this.order[this.focusAt ?? this.order.length - 1];
    if (!card) return false;
    card.toggle();
    return true;
  }

  /**
   * Alt-Up (-1): focus the card before the focused one, the newest when none is; Alt-Down (+1):
   * the one after, none past the newest. The focused card, or undefined (no card, or none now).
   */
  moveFocus(step: -1 | 1): { card: CallCard; place: number; of: number } | undefined {
    if (this.order.length === 0) return undefined;
    const from = this.focusAt ?? this.order.length;
    const to = Math.max(0, Math.min(this.order.length, from + step));
    if (this.focusAt !== undefined) this.order[this.focusAt]?.setFocused(false);
    this.focusAt = to < this.order.length ? to : undefined;
    const card = this.focusAt === undefined ? undefined : this.order[this.focusAt];
    card?.setFocused(true);
    return card ? { card, place: to + 1, of: this.order.length } : undefined;
  }

  /**
   * The first line of a new session, shown before its log is open (the first frame); its
   * `session/start` then adds nothing.
   */
  announce(sessionId: string, provider: string, model: string): void {
    this.announced = sessionId;
    this.sessionLine(sessionId, provider, model);
  }

  /** A line the log does not carry (agent notices, slash command output). */
  notice(text: string): void {
    this.line(text);
  }

  /** Empties it, for another session's transcript (`/resume`). */
  reset(): void {
    this.root.clear();
    this.streams.clear();
    this.cards.clear();
    this.subagents.clear();
    this.pending.clear();
    this.order.length = 0;
    this.focusAt = undefined;
  }

  /** Re-renders everything, after a display change such as `/thinking`. */
  invalidate(): void {
    this.root.invalidate();
  }

  /** The provider's searches (each with its first results) and the sources the answer cites. */
  private webSearches(event: EventOf<"assistant/message">): void {
    const view = webSearchView(event.content);
    if (!view) return;
    const { theme } = this;
    const lines: string[] = [];
    for (const search of view.searches) {
      lines.push(`${theme.accent("⌕ ")}${safe(search.headline)}`);
      const shown = search.sources.slice(0, SOURCES_SHOWN);
      lines.push(...shown.map((source) => theme.dim(`  ${safe(sourceLine(source))}`)));
      const more = search.sources.length - shown.length;
      if (more > 0) lines.push(theme.dim(`  … ${more} more`));
    }
    if (view.cited.length > 0) {
      lines.push(theme.accent("Sources cited:"));
      view.cited.forEach((source, i) => {
        lines.push(theme.dim(`  [${i + 1}] ${safe(sourceLine(source))}`));
      });
    }
    this.line(lines.join("\n"));
  }

  private prompt(text: string, suffix = ""): void {
    this.root.addChild(new Spacer(1));
    const styled = text
      .split("\n")
      .map(
        (line, index) => `${index === 0 ? this.theme.accent("› ") : "  "}${this.theme.bold(line)}`,
      )
      .join("\n");
    this.root.addChild(new Text(`${styled}${this.theme.dim(suffix)}`, 0, 0));
  }

  private chunk(event: EventOf<"assistant/chunk">): void {
    const key = `${event.turn}:${event.step}:${event.block}`;
    if (event.kind === "tool_input") {
      this.pending.get(key)?.card.push(event.delta);
      return;
    }
    let stream = this.streams.get(key);
    if (!stream) {
      // A hidden thinking block takes no line at all, so it brings its own blank line.
      if (event.kind === "text") this.root.addChild(new Spacer(1));
      if (event.kind === "text") {
        stream = { kind: "text", view: new StreamedMarkdown(this.theme.markdown) };
      } else {
        stream = { kind: "thinking", view: new ThinkingBlock(this.theme, this.display) };
      }
      this.streams.set(key, stream);
      this.root.addChild(stream.view);
    }
    if (stream.kind === "text") {
      stream.view.append(safe(event.delta));
    } else {
      stream.view.append(safe(event.delta));
    }
  }

  private toolCall(event: EventOf<"tool/call">): void {
    const presentation = this.presentations.of(event);
    const slot = this.takePending(event.call_id);
    if (!presentation || !("title" in presentation)) {
      if (slot) this.root.removeChild(slot);
      return;
    }
    const card = this.cardOf(event, presentation);
    this.cards.set(event.call_id, card);
    this.order.push(card);
    const into = slot ?? this.root;
    slot?.clear();
    into.addChild(new Spacer(1));
    into.addChild(card);
  }

  /** A call's card: a `task` call's nests its subagent's, when the surface can show them. */
  private cardOf(event: EventOf<"tool/call">, presentation: CallPresentation): CallCard {
    if (event.name !== "task" || !this.children)
      return new ToolCard(event, presentation, this.theme);
    const args = event.arguments;
    const agent =
      args && typeof args === "object" && !Array.isArray(args) && typeof args.agent === "string"
        ? args.agent
        : undefined;
    const card = new SubagentCard(
      event,
      presentation,
      this.theme,
      this.children.presentations(),
      agent,
    );
    this.subagents.set(event.call_id, card);
    return card;
  }

  /** The slot of the pending card of a call, taken out of the pending ones; undefined: none. */
  private takePending(callId: string): Container | undefined {
    for (const [key, call] of this.pending) {
      if (call.callId !== callId) continue;
      this.pending.delete(key);
      return call.slot;
    }
    return undefined;
  }

  /** Removes the pending cards of calls that will not come. */
  private dropPending(which: (call: PendingCall) => boolean): void {
    for (const [key, call] of this.pending) {
      if (!which(call)) continue;
      this.pending.delete(key);
      this.root.removeChild(call.slot);
    }
  }

  private toolResult(event: EventOf<"tool/result">): void {
    const presentation = this.presentations.of(event) as ResultPresentation | undefined;
    const card = this.cards.get(event.call_id);
    if (!card || !presentation) return;
    const subagent = this.subagents.get(event.call_id);
    if (subagent && !subagent.seenChild && event.child) {
      // Replayed: the child's events are in its own log.
      for (const child of this.children?.events(event.child.session_id) ?? [])
        subagent.child(child);
    }
    this.subagents.delete(event.call_id);
    card.finish(event, presentation);
    this.cards.delete(event.call_id);
  }

  /** One line for a turn that did not complete; the session goes on either way. */
  private turnEnd(event: EventOf<"turn/end">): void {
    const { theme } = this;
    const failedRequest = this.failedTurn === event.turn;
    this.failedTurn = undefined;
    if (event.reason === "completed") return;
    if (event.reason === "cancelled") {
      this.line(theme.warn("cancelled"));
      return;
    }
    const error = event.error ? oneLine(event.error, 400) : undefined;
    if (event.reason === "error") {
      const what = error ?? "the turn ended with an error";
      this.line(theme.bad(`✗ ${failedRequest ? `the request failed: ${what}` : what}`));
      return;
    }
    if (event.reason === "max_steps") {
      this.line(theme.warn(`■ ${error ?? "stopped: the step limit (max_steps)"}`));
      return;
    }
    this.line(
      theme.bad(`✗ ${error ?? "stopped: the session reached its budget (max_budget_usd)"}`),
    );
  }

  private todos(event: EventOf<"todo/update">): void {
    const mark = { pending: "☐", in_progress: "◐", completed: "☑" } as const;
    const lines = event.todos.map((todo) => `  ${mark[todo.status]} ${safe(todo.content)}`);
    this.line([this.theme.dim("todo"), ...lines].join("\n"));
  }

  private sessionLine(sessionId: string, provider: string, model: string): void {
    this.line(this.theme.dim(safe(`session ${sessionId} · ${provider}/${model}`)));
  }

  private line(text: string): void {
    this.root.addChild(new Spacer(1));
    this.root.addChild(new Text(text, 0, 0));
  }
}
