// A tool call's arguments while the model still writes them (partial JSON, fed delta by
// delta), as lines a person can follow: JSON's string escapes decoded, so a file being written
// shows as its own lines, only the last few lines kept however long the input grows, each
// escaped by the one escaper when read. The terminal's pending tool card and ACP's streaming
// `tool_call` show it (tui/pending-tool-card.ts, acp/event-updates.ts).
import { terminalSafeLine } from "../runner/escape-controls.ts";

/** A line is kept up to this many characters; a person sees its start, the rest is counted. */
const MAX_LINE_CHARS = 512;

const ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  '"': '"',
  "\\": "\\",
  "/": "/",
};

export class StreamingInput {
  /** Characters of raw JSON received so far. */
  chars = 0;
  /** Lines finished so far (a decoded or literal newline ends one). */
  lines = 0;
  private readonly done: string[] = [];
  private current = "";
  private inString = false;
  /** An escape cut between deltas: `\` or `\u` and the hex digits so far; null when none. */
  private escape: string | null = null;

  /** `keep`: how many of the last lines `tail()` gives. */
  constructor(private readonly keep: number) {}

  push(delta: string): void {
    this.chars += delta.length;
    for (const char of delta) this.take(char);
  }

  /** The last lines, the one being written last (when it has begun), each escaped. */
  tail(): string[] {
    const lines = this.current === "" ? this.done : [...this.done, this.current];
    return lines.slice(-this.keep).map((line) => terminalSafeLine(line.replaceAll("\t", "    ")));
  }

  private take(char: string): void {
    if (this.escape !== null) {
      this.continueEscape(char);
      return;
    }
    if (this.inString && char === "\\") this.escape = "\\";
    else if (char === '"') {
      this.inString = !this.inString;
      this.write(char);
    } else this.write(char);
  }

  private continueEscape(char: string): void {
    const sequence = `${this.escape}${char}`;
    if (sequence === "\\u" || (sequence.startsWith("\\u") && sequence.length < 6)) {
      this.escape = sequence;
      return;
    }
    this.escape = null;
    if (sequence.startsWith("\\u")) {
      const code = Number.parseInt(sequence.slice(2), 16);
      this.write(Number.isNaN(code) ? sequence : String.fromCharCode(code));
    } else this.write(ESCAPES[char] ?? sequence);
  }

  private write(text: string): void {
    for (const char of text) {
      if (char === "\n") {
        this.done.push(this.current);
        if (this.done.length > this.keep) this.done.shift();
        this.current = "";
        this.lines++;
      } else if (this.current.length < MAX_LINE_CHARS) this.current += char;
    }
  }
}
