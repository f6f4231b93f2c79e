// The three output formats of `codewhale exec`: `text` (the answer, streamed on a terminal, and
// a person's stderr lines: present/text-output.ts), `json` (one result object) and
// `stream-json` (the projection of present/stream-json.ts, written in batches). Each renders
// only from `session/event`; the refused calls of each turn go on its result.

import { ChildFigures } from "../present/child-figures.ts";
import { formatCost, formatDuration, plural } from "../present/format.ts";
import type { MissingAnswer } from "../present/missing-answer.ts";
import {
  deltaLineMaxBytes,
  encodeDeltaLine,
  type InitInfo,
  initLine,
  LastAnswer,
  type PermissionDenial,
  permissionDenial,
  projectChildEvent,
  projectEventText,
  type RunEnd,
  resultLine,
  type StreamLine,
  serializeLine,
} from "../present/stream-json.ts";
import { TextOutput, type TextOutputOptions } from "../present/text-output.ts";
import { ToolPresentations } from "../present/tool-presentations.ts";
import type { EventOf, SessionEvent } from "../session/events.ts";
import { FiguresFold } from "../session/figures.ts";

export type OutputFormat = "text" | "json" | "stream-json";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["text", "json", "stream-json"];

const FLUSH_BYTES = 64 * 1024;

/**
 * Encodes stdout lines into one reused buffer and writes it out in batches of up to 64 KiB
 * (or at the next turn of the event loop); `drain` flushes and waits for the reader. Lines are
 * encoded at once, so nothing per line outlives the call that wrote it.
 */
export class LineSink {
  private readonly buffer = Buffer.allocUnsafe(FLUSH_BYTES);
  private used = 0;
  private scheduled = false;

  constructor(private readonly out: NodeJS.WritableStream) {}

  write(text: string): void {
    if (this.used + text.length * 3 > this.buffer.length) {
      this.flush();
      if (text.length * 3 > this.buffer.length) {
        this.out.write(text);
        return;
      }
    }
    this.used += this.buffer.write(text, this.used, "utf8");
    this.scheduleFlush();
  }

  /** A chunk's stream-json line, encoded straight into the buffer (the bulk of any stream). */
  writeDelta(event: EventOf<"assistant/chunk">): void {
    const room = deltaLineMaxBytes(event);
    if (this.used + room > this.buffer.length) this.flush();
    if (room > this.buffer.length || !Number.isSafeInteger(event.seq) || event.seq < 0) {
      this.write(projectEventText(event));
      return;
    }
    this.used = encodeDeltaLine(event, this.buffer, this.used);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  flush(): void {
    this.scheduled = false;
    if (this.used === 0) return;
    this.out.write(Buffer.from(this.buffer.subarray(0, this.used)));
    this.used = 0;
  }

  async drain(): Promise<void> {
    this.flush();
    await new Promise<void>((resolve) => this.out.write("", () => resolve()));
  }
}

/** How a run is shown; the text-only parts are ignored by json and stream-json. */
export interface ExecOutputOptions extends TextOutputOptions {
  /** Text: the session id and the cost on stderr at the end of each turn (a terminal). */
  summary: boolean;
}

/** Renders one run in one format; `observe` is subscribed to `session/event`. */
export class ExecOutput {
  /** The figures and the answer of the turns since the last result. */
  private figures = new FiguresFold();
  private answer = new LastAnswer();
  /** The subagent sessions of the turns since the last result. */
  private children = new ChildFigures();
  /** The calls refused since the last result. */
  private denials: PermissionDenial[] = [];
  /** How tool calls and results are presented on their stream-json lines. */
  readonly tools = new ToolPresentations();
  private readonly sink: LineSink;
  private readonly text: TextOutput | null;
  /** Lines of events published before `init` (the session's first events). */
  private beforeInit: string[] | null = [];

  constructor(
    readonly format: OutputFormat,
    stdout: NodeJS.WritableStream,
    private readonly stderr: NodeJS.WritableStream,
    private readonly options: ExecOutputOptions,
  ) {
    const sink = new LineSink(stdout);
    this.sink = sink;
    const write = {
      out: (text: string) => sink.write(text),
      // What stdout holds goes out first: on a terminal the two interleave in order.
      err: (text: string) => {
        sink.flush();
        stderr.write(text);
      },
    };
    this.text = format === "text" ? new TextOutput(write, this.tools, options) : null;
  }

  readonly observe = (event: SessionEvent): void => {
    this.figures.observe(event);
    this.answer.observe(event);
    if (event.type === "tool/call") this.noteRefusal(event);
    if (this.format === "stream-json") {
      if (event.type === "assistant/chunk" && this.beforeInit === null) this.sink.writeDelta(event);
      else this.writeLine(projectEventText(event, this.tools.of(event)));
    } else this.text?.observe(event);
  };

  /** A subagent's event: its stream-json lines, named by child and parent call. */
  readonly observeChild = (child: {
    callId: string;
    sessionId: string;
    event: SessionEvent;
  }): void => {
    this.children.observe(child);
    if (this.format !== "stream-json") return;
    const lines = projectChildEvent(child, this.tools.of(child.event));
    this.writeLine(lines.map(serializeLine).join(""));
  };

  private noteRefusal(event: EventOf<"tool/call">): void {
    const refusal = this.options.refusal(event);
    if (refusal) this.denials.push(permissionDenial(event, refusal.rule));
  }

  /** Writes the `init` line first, then the events that arrived while the session opened. */
  init(info: InitInfo): void {
    const held = this.beforeInit ?? [];
    this.beforeInit = null;
    if (this.format !== "stream-json") return;
    this.sink.write(serializeLine(initLine(info)));
    for (const line of held) this.sink.write(line);
  }

  private writeLine(line: string): void {
    if (this.beforeInit) this.beforeInit.push(line);
    else this.sink.write(line);
  }

  /** A stream-json line that is not a session event (an input error). */
  line(line: StreamLine): void {
    if (this.format === "stream-json") this.writeLine(serializeLine(line));
  }

  /** A line for the person on stderr; in text, after ending a line the streamed answer left open. */
  stderrLine(text: string): void {
    if (this.text) this.text.line(text);
    else this.stderr.write(`${text}\n`);
  }

  /** Why the turn's last message holds no answer (present/missing-answer.ts), or null. */
  missingAnswer(): MissingAnswer | null {
    return this.answer.missing;
  }

  /** Writes what ends a turn in this format, then starts counting afresh. */
  async finish(end: Omit<RunEnd, "permissionDenials" | "stopReason">): Promise<void> {
    const { missing, stopReason } = this.answer;
    const result = resultLine(this.figures.figures, this.answer.text, {
      ...end,
      stopReason: end.reason === "completed" && missing ? missing : stopReason,
      permissionDenials: this.denials,
      subagents: this.children.summary(this.figures.figures.cost),
    });
    if (this.text) this.endText(end);
    else this.sink.write(serializeLine(result));
    this.figures = new FiguresFold();
    this.answer = new LastAnswer();
    this.children = new ChildFigures();
    this.denials = [];
    await this.sink.drain();
  }

  /** The answer (unless streamed), the summary on a terminal, and how many calls were refused. */
  private endText(end: Omit<RunEnd, "permissionDenials" | "stopReason">): void {
    const text = this.text as TextOutput;
    text.answer(this.answer.text, this.answer.plan);
    if (this.options.summary) {
      const cost = formatCost(this.figures.figures.cost);
      text.line(
        `codewhale: session ${end.sessionId} · ${cost} · ${formatDuration(end.durationMs)}`,
      );
    }
    const refused = this.denials.length;
    if (refused > 0) {
      const verb = refused === 1 ? "was" : "were";
      text.line(`codewhale: ${plural(refused, "call")} ${verb} refused by the permission policy`);
    }
  }
}
