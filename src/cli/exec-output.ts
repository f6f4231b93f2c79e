// The three output formats of `codewhale exec`: `text` (the final answer; thinking on stderr
// with --show-thinking), `json` (one result object) and `stream-json` (the projection of
// present/stream-json.ts, written in batches). Each renders only from `session/event`.

import {
  deltaLineMaxBytes,
  encodeDeltaLine,
  type InitInfo,
  initLine,
  LastAnswer,
  projectEventText,
  type RunEnd,
  resultLine,
  type StreamLine,
  serializeLine,
} from "../present/stream-json.ts";
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

/** Renders one run in one format; `observe` is subscribed to `session/event`. */
export class ExecOutput {
  /** The figures and the answer of the turns since the last result. */
  private figures = new FiguresFold();
  private answer = new LastAnswer();
  /** How tool calls and results are presented on their stream-json lines. */
  readonly tools = new ToolPresentations();
  private readonly sink: LineSink;
  /** Lines of events published before `init` (the session's first events). */
  private beforeInit: string[] | null = [];

  constructor(
    readonly format: OutputFormat,
    stdout: NodeJS.WritableStream,
    private readonly stderr: NodeJS.WritableStream,
    private readonly showThinking: boolean,
  ) {
    this.sink = new LineSink(stdout);
  }

  readonly observe = (event: SessionEvent): void => {
    this.figures.observe(event);
    this.answer.observe(event);
    if (this.format === "stream-json") {
      if (event.type === "assistant/chunk" && this.beforeInit === null) this.sink.writeDelta(event);
      else this.writeLine(projectEventText(event, this.tools.of(event)));
    } else if (this.showThinking && event.type === "assistant/message" && this.answer.thinking) {
      this.stderr.write(`${this.answer.thinking.replace(/^/gm, "[thinking] ")}\n`);
    }
  };

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

  /** Writes what ends a turn in this format, then starts counting afresh. */
  async finish(end: RunEnd): Promise<void> {
    const result = resultLine(this.figures.figures, this.answer.text, end);
    if (this.format === "text") {
      if (this.answer.text) this.sink.write(`${this.answer.text}\n`);
    } else this.sink.write(serializeLine(result));
    this.figures = new FiguresFold();
    this.answer = new LastAnswer();
    await this.sink.drain();
  }
}
