// Stage 2 of the output policy: control-sequence hygiene over a byte stream. Holds the current
// line until its newline so escape sequences split across reads and `\r` overwrites resolve the
// way a terminal shows them; plain and colour-only lines take a regex fast path.
import type { ByteString } from "./byte-text.ts";
import { fromByteString, toByteString, Utf8Sanitizer } from "./byte-text.ts";
import { LineRenderer } from "./line-renderer.ts";

/** Any byte a line needs work for: C0 controls but tab and newline, DEL, C1 (as UTF-8). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control bytes is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]/;
const CONTROL_GLOBAL = new RegExp(CONTROL.source, "g");
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control bytes is the point
const ASCII = /^[\x00-\x7f]*$/;
/** Colour and style sequences (SGR), the common case, removed without rendering. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control bytes is the point
const SGR = /\x1b\[[0-9;:]*m/g;
/** A line without a newline longer than this is rendered and, if still as long, emitted. */
const MAX_PENDING_LINE = 64 * 1024;

/** Streams raw bytes in, gives cleaned valid-UTF-8 byte strings out, whole lines at a time. */
export class ControlStripper {
  private readonly sanitizer = new Utf8Sanitizer();
  private pending: ByteString = "";
  /** Set while an over-long line is being rendered piecewise. */
  private renderer: LineRenderer | null = null;

  push(chunk: Uint8Array): ByteString {
    return this.pushText(this.sanitizer.push(chunk));
  }

  /** Flushes the last line (without adding a newline). */
  end(): ByteString {
    const tail = this.pushText(this.sanitizer.end());
    const last = this.pending;
    this.pending = "";
    if (this.renderer) return tail + this.finishLong(last);
    return tail + (CONTROL.test(last) ? renderBytes(last) : last);
  }

  private pushText(text: ByteString): ByteString {
    const joined = this.pending + text;
    const newline = joined.lastIndexOf("\n");
    if (newline < 0) {
      this.pending = joined;
      return joined.length > MAX_PENDING_LINE ? this.flushLong() : "";
    }
    this.pending = joined.slice(newline + 1);
    const complete = joined.slice(0, newline + 1);
    if (!this.renderer) return cleanLines(complete);
    const firstEnd = complete.indexOf("\n");
    const first = this.finishLong(complete.slice(0, firstEnd));
    return `${first}\n${cleanLines(complete.slice(firstEnd + 1))}`;
  }

  /** Renders an over-long pending line; emits it when it stays long after rendering. */
  private flushLong(): ByteString {
    this.renderer ??= new LineRenderer();
    this.renderer.feed(fromByteString(this.pending));
    this.pending = "";
    if (this.renderer.width <= MAX_PENDING_LINE) return "";
    return toByteString(this.renderer.take());
  }

  private finishLong(rest: ByteString): ByteString {
    const renderer = this.renderer!;
    this.renderer = null;
    renderer.feed(fromByteString(rest));
    return toByteString(renderer.take());
  }
}

/** Cleans a block of whole lines (each ending in a newline): only lines with controls are touched. */
export function cleanLines(block: ByteString): ByteString {
  if (!CONTROL.test(block)) return block;
  const text = block.includes("\x1b[") ? block.replace(SGR, "") : block;
  let out = "";
  let cursor = 0;
  CONTROL_GLOBAL.lastIndex = 0;
  for (let hit = CONTROL_GLOBAL.exec(text); hit; hit = CONTROL_GLOBAL.exec(text)) {
    const start = text.lastIndexOf("\n", hit.index) + 1;
    const newline = text.indexOf("\n", hit.index);
    const end = newline < 0 ? text.length : newline;
    out += text.slice(cursor, start) + renderBytes(text.slice(start, end));
    cursor = end;
    CONTROL_GLOBAL.lastIndex = end;
  }
  return cursor === 0 ? text : out + text.slice(cursor);
}

function renderBytes(line: ByteString): ByteString {
  const ascii = ASCII.test(line);
  const renderer = new LineRenderer();
  renderer.feed(ascii ? line : fromByteString(line));
  const rendered = renderer.take();
  return ascii ? rendered : toByteString(rendered);
}

/** Strips and renders a whole text at once (for producers that are not streams). */
export function stripControls(text: string): string {
  const stripper = new ControlStripper();
  const bytes = Buffer.from(text, "utf8");
  return fromByteString(stripper.push(bytes) + stripper.end());
}
