// Stage 2 of the output policy: control-sequence hygiene over a byte stream. Holds the current
// line until its newline so escape sequences split across reads and `\r` overwrites resolve the
// way a terminal shows them; plain text, colour-only and `\r`-only lines take fast paths.
import type { ByteString } from "./byte-text.ts";
import { fromByteString, toByteString, Utf8Sanitizer } from "./byte-text.ts";
import { LineRenderer } from "./line-renderer.ts";

/**
 * Candidates for a byte a line needs work for: C0 controls but tab and newline, DEL, and 0xC2,
 * the lead byte of C1 controls in UTF-8 (confirmed by nextControl). One class scans fastest.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control bytes is the point
const CONTROL_CANDIDATE = /[\x00-\x08\x0b-\x1f\x7f\xc2]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control bytes is the point
const ASCII = /^[\x00-\x7f]*$/;
/** A line of printable ASCII and tabs whose only control is `\r`: overwritten by slicing. */
const CARRIAGE_RETURN_ONLY = /^[\t\r\x20-\x7e]*$/;
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
    return tail + (nextControl(last, 0) < 0 ? last : renderLine(last));
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
  if (nextControl(block, 0) < 0) return block;
  const text = block.includes("\x1b[") ? block.replace(SGR, "") : block;
  let out = "";
  let cursor = 0;
  for (let hit = nextControl(text, 0); hit >= 0; ) {
    const start = text.lastIndexOf("\n", hit) + 1;
    const newline = text.indexOf("\n", hit);
    const end = newline < 0 ? text.length : newline;
    out += text.slice(cursor, start) + renderLine(text.slice(start, end));
    cursor = end;
    hit = nextControl(text, end);
  }
  return cursor === 0 ? text : out + text.slice(cursor);
}

/** Index of the first control byte (or C1 control) at or after `from`, or -1. */
function nextControl(text: ByteString, from: number): number {
  CONTROL_CANDIDATE.lastIndex = from;
  // test() rather than exec(): no match array per hit; the match is the one byte before lastIndex.
  while (CONTROL_CANDIDATE.test(text)) {
    const at = CONTROL_CANDIDATE.lastIndex - 1;
    if (text.charCodeAt(at) !== 0xc2) return at;
    const next = text.charCodeAt(at + 1);
    if (next >= 0x80 && next <= 0x9f) return at;
  }
  return -1;
}

/** One line as a terminal shows it; `\r` overwrites of plain ASCII skip the renderer. */
function renderLine(line: ByteString): ByteString {
  if (!CARRIAGE_RETURN_ONLY.test(line)) return renderBytes(line);
  let shown = "";
  for (let start = 0; ; ) {
    const cr = line.indexOf("\r", start);
    const part = line.slice(start, cr < 0 ? line.length : cr);
    shown = part.length >= shown.length ? part : part + shown.slice(part.length);
    if (cr < 0) return shown;
    start = cr + 1;
  }
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
