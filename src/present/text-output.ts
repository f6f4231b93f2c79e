// What a person sees of a run in text: the answer streamed to stdout as it arrives (on a
// terminal), and on stderr one line per tool call as it starts and ends, per refused call and
// per retried request (tool-line.ts), the provider's web searches and cited sources
// (web-search-lines.ts), thinking as `[thinking]` lines when shown. Fed only from
// `session/event`; exec's output (cli/exec-output.ts) owns one and prints the run's end lines.
import type { EventOf, SessionEvent } from "../session/events.ts";
import type { CallPresentation } from "../tools/presentation.ts";
import { LastAnswer } from "./stream-json.ts";
import {
  type LineStyle,
  paint,
  refusalLine,
  retryLine,
  terminalSafe,
  toolEndLine,
  toolStartLine,
} from "./tool-line.ts";
import type { ToolPresentations } from "./tool-presentations.ts";
import { webSearchLines, webSearchView } from "./web-search-lines.ts";

export interface TextOutputOptions {
  /** Stream response text to stdout as it arrives (stdout is a terminal). */
  streamAnswer: boolean;
  /** Tool, retry and start lines on stderr (off with --quiet; refusals are always shown). */
  activity: boolean;
  showThinking: boolean;
  style: LineStyle;
  /** A refused call's narrowest allow rule (null: none would), or undefined: not a refusal. */
  refusal: (call: EventOf<"tool/call">) => { rule: string | null } | undefined;
}

type Stream = "out" | "err";

export class TextOutput {
  /** The stream whose last line is not yet ended, so that the other never writes into it. */
  private open: Stream | null = null;
  /** Calls started and not ended, with how they were presented. */
  private readonly calls = new Map<
    string,
    { call: EventOf<"tool/call">; presentation: CallPresentation; refused: boolean }
  >();
  /** Whether response text of this turn went to stdout already. */
  private streamed = false;
  /**
   * The time of the event before this one. The loop records every call of a message before
   * the first runs, then runs them in order, so a call runs from the event before its result.
   */
  private previousTs: string | null = null;

  constructor(
    private readonly write: Record<Stream, (text: string) => void>,
    private readonly tools: ToolPresentations,
    private readonly options: TextOutputOptions,
  ) {}

  observe(event: SessionEvent): void {
    this.render(event);
    this.previousTs = event.ts;
  }

  private render(event: SessionEvent): void {
    const { options } = this;
    if (event.type === "assistant/chunk") this.chunk(event);
    else if (event.type === "assistant/message") {
      this.endLine();
      if (options.showThinking && !options.streamAnswer) this.thinkingOf(event);
      if (options.activity) this.searchesOf(event);
    } else if (event.type === "step/failed") {
      this.endLine();
      if (event.will_retry && options.activity) this.line(retryLine(event, options.style));
    } else if (event.type === "tool/call") this.callStarted(event);
    else if (event.type === "tool/result") this.callEnded(event);
  }

  /** The end of a turn: the answer, unless it was streamed already (a plan never is). */
  answer(text: string, plan = false): void {
    this.endLine();
    if ((plan || !this.streamed) && text !== "") {
      this.write.out(`${this.options.streamAnswer ? terminalSafe(text) : text}\n`);
    }
    this.streamed = false;
  }

  /** A line on stderr, after ending any line stdout left open. */
  line(text: string): void {
    this.endLine();
    this.write.err(`${text}\n`);
  }

  private chunk(event: EventOf<"assistant/chunk">): void {
    const { options } = this;
    if (!options.streamAnswer) return;
    if (event.kind === "text") {
      this.to("out", terminalSafe(event.delta));
      this.streamed = true;
    } else if (event.kind === "thinking" && options.showThinking) {
      const prefix = paint(options.style, "dim", "[thinking] ");
      const text = terminalSafe(event.delta).replace(/\n(?=.)/g, `\n${prefix}`);
      this.to("err", this.open === "err" ? text : `${prefix}${text}`);
    }
  }

  private thinkingOf(event: EventOf<"assistant/message">): void {
    const last = new LastAnswer();
    last.observe(event);
    const thinking = last.thinking;
    if (thinking === "") return;
    this.line(terminalSafe(thinking).replace(/^/gm, "[thinking] "));
  }

  /** The provider's searches and the sources the answer cites, as activity lines. */
  private searchesOf(event: EventOf<"assistant/message">): void {
    const view = webSearchView(event.content);
    if (!view) return;
    for (const line of webSearchLines(view)) {
      const text = terminalSafe(line);
      this.line(line.startsWith(" ") ? text : `${paint(this.options.style, "dim", "⌕")} ${text}`);
    }
  }

  private callStarted(event: EventOf<"tool/call">): void {
    const presentation = this.tools.of(event);
    const refusal = this.options.refusal(event);
    this.calls.set(event.call_id, { call: event, presentation, refused: refusal !== undefined });
    if (refusal) this.line(refusalLine(event, refusal.rule, this.options.style));
    else if (this.options.activity)
      this.line(toolStartLine(event, presentation, this.options.style));
  }

  private callEnded(event: EventOf<"tool/result">): void {
    const started = this.calls.get(event.call_id);
    const result = this.tools.of(event);
    this.calls.delete(event.call_id);
    if (!started || started.refused || !this.options.activity) return;
    const presentations = { call: started.presentation, result };
    const ran =
      this.previousTs === null ? null : Date.parse(event.ts) - Date.parse(this.previousTs);
    this.line(toolEndLine(started.call, event, presentations, ran, this.options.style));
  }

  /** Writes `text` on `stream`, first ending the other stream's open line. */
  private to(stream: Stream, text: string): void {
    if (text === "") return;
    if (this.open !== null && this.open !== stream) this.endLine();
    this.write[stream](text);
    this.open = text.endsWith("\n") ? null : stream;
  }

  private endLine(): void {
    if (this.open === null) return;
    this.write[this.open]("\n");
    this.open = null;
  }
}
