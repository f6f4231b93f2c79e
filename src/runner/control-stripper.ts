// Stage 2 of the output policy: control-sequence hygiene over a byte stream. Holds the current
// line until its newline so escape sequences split across reads and `\r` overwrites resolve the
// way a terminal shows them; plain text, colour-only and `\r`-only lines take fast paths. A
// stream that moves the cursor between lines, erases the display, sets a scroll region or
// switches screens goes to the terminal emulator (terminal-screen.ts) from then on. With a
// secret finder, whatever is rendered has its secrets masked first (pre-render-mask.ts).
import type { ByteString } from "./byte-text.ts";
import { fromByteString, toByteString, Utf8Sanitizer } from "./byte-text.ts";
import { LineRenderer } from "./line-renderer.ts";
import type { SecretFinder } from "./pre-render-mask.ts";
import { hasMaskCells, maskBeforeRender, placeholdersFor, StreamMask } from "./pre-render-mask.ts";
import type { TerminalSize } from "./terminal-screen.ts";
import { TerminalScreen, terminalEmulatorLoaded } from "./terminal-screen.ts";

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
/**
 * What sends a stream to the emulator: cursor moves off the line (up, down, to a row, next or
 * previous line, tab stops), erasing the display, scrolling, inserting or deleting lines, scroll
 * regions, save and restore of the cursor, the alternate screen, index and reverse index, reset,
 * and the vertical tab and form feed. Colours, `\r`, backspace and moves within a line do not.
 */
const EMULATOR_TRIGGER =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control bytes is the point
  /\x1b(?:\[[0-9;:?]*[ABEFHIJLMSTZdefrsu]|\[\?(?:1049|1047|1048|47)[hl]|[78cDEM])/g;

export interface StripperOptions {
  /** The terminal the output was meant for; default: no wrap, 24 rows, from a pipe. */
  terminal?: TerminalSize;
  /**
   * Emit each line as soon as it ends (a live log). Otherwise the last screenful of lines is
   * held back, so a switch to the emulator replays it and gives what deciding upfront gives.
   */
  live?: boolean;
  /**
   * Finds secrets in the written-order text of what is rendered (the redactor's rules and known
   * values), masked before rendering so no overwrite can hide part of one from redaction.
   */
  find?: SecretFinder | null;
  /**
   * The longest known secret value: on the emulator's path this much of the written text is
   * held back from one read to the next, so a value split between two reads is masked whole.
   */
  holdChars?: number;
}

/** Streams raw bytes in, gives cleaned valid-UTF-8 byte strings out, whole lines at a time. */
export class ControlStripper {
  private readonly sanitizer = new Utf8Sanitizer();
  private readonly terminal: TerminalSize;
  private readonly hold: number;
  private pending: ByteString = "";
  /** Whole lines not yet emitted (raw): the last `hold` lines, the screen an emulator would show. */
  private held: ByteString = "";
  /** Set while an over-long line is being rendered piecewise. */
  private renderer: LineRenderer | null = null;
  private screen: TerminalScreen | null = null;
  /** Raw text waiting for the emulator to load (see wantsEmulator). */
  private waiting: ByteString | null = null;
  private emulatorUnavailable = false;
  private readonly find: SecretFinder | null;
  /** The kind of the last secret masked on the emulator's or a long line's path. */
  private maskedKind = "secret";
  private readonly holdChars: number;
  /** The emulator's mask, which searches each read with the held tail of the one before. */
  private streamMask: StreamMask | null = null;

  constructor(options: StripperOptions = {}) {
    this.terminal = options.terminal ?? { cols: 0, rows: 24 };
    this.hold = options.live ? 0 : Math.max(1, this.terminal.rows);
    this.find = options.find ?? null;
    this.holdChars = options.holdChars ?? 0;
  }

  /**
   * True when the stream needs the emulator and it is not loaded yet: the caller awaits
   * loadTerminalEmulator() and calls resume(); until then the stripper keeps the input.
   */
  get wantsEmulator(): boolean {
    return this.waiting !== null;
  }

  push(chunk: Uint8Array): ByteString {
    return this.pushText(this.sanitizer.push(chunk));
  }

  /** Renders what waited for the emulator (after loadTerminalEmulator()). */
  resume(): ByteString {
    const text = this.waiting ?? "";
    this.waiting = null;
    if (terminalEmulatorLoaded()) return this.switchOver(text);
    // It failed to load (the pipeline reports why): the line renderer does what it can.
    this.emulatorUnavailable = true;
    return this.fastPath(text);
  }

  /**
   * The whole lines held back for a possible switch to the emulator, cleaned as they would be
   * emitted if none comes; consumes nothing (a live view of a running command). Empty once the
   * emulator runs or is awaited.
   */
  preview(): ByteString {
    if (this.waiting !== null || this.screen || this.held === "") return "";
    return cleanLines(this.held, this.find, false);
  }

  /** Flushes the last line (without adding a newline). */
  end(): ByteString {
    const tail = this.pushText(this.sanitizer.end());
    if (this.waiting !== null) {
      // The emulator never loaded: fall back to the line renderer for what waited.
      const text = this.waiting;
      this.waiting = null;
      return tail + this.fastPath(text) + this.finishFast();
    }
    if (this.screen) {
      const rest = this.streamMask
        ? this.fromScreen(this.screen.write(this.screenText("", true)))
        : "";
      return tail + rest + this.fromScreen(this.screen.end());
    }
    return tail + this.finishFast();
  }

  private finishFast(): ByteString {
    const held = this.held === "" ? "" : this.clean(this.held);
    this.held = "";
    const last = this.pending;
    this.pending = "";
    if (this.renderer) return held + this.finishLong(last);
    return held + (nextControl(last, 0) < 0 ? last : renderLine(last, this.find, true));
  }

  private pushText(text: ByteString): ByteString {
    if (this.waiting !== null) {
      this.waiting += text;
      return "";
    }
    // Colours never change what is shown: drop them first (one cut in two by a read is left to
    // cleanLines, or to the emulator).
    const plain = text.includes("\x1b[") ? text.replace(SGR, "") : text;
    if (this.screen) return this.toScreen(plain);
    return plain.length === 0 ? "" : this.route(plain);
  }

  private route(text: ByteString): ByteString {
    if (this.emulatorUnavailable) return this.fastPath(text);
    if (hasTrigger(text) || triggerSpans(this.pending, text)) return this.switchOver(text);
    const cols = this.terminal.cols;
    if (cols > 0 && movesBackOverWrap(this.pending, text, cols)) return this.switchOver(text);
    return this.fastPath(text);
  }

  /** From here on the stream goes to the emulator, starting with the held screenful. */
  private switchOver(text: ByteString): ByteString {
    if (!terminalEmulatorLoaded()) {
      this.waiting = text;
      return "";
    }
    let before = "";
    let replay = this.held + this.pending + text;
    if (this.renderer) {
      // An over-long line was partly emitted already: finish it as the line renderer had it.
      before = this.finishLong("");
      replay = text;
    }
    this.held = "";
    this.pending = "";
    this.screen = new TerminalScreen(this.terminal);
    return before + this.toScreen(replay);
  }

  /** Writes to the emulator, secrets masked first; returns what scrolled out, placeholders in. */
  private toScreen(text: ByteString): ByteString {
    return this.fromScreen(this.screen!.write(this.screenText(text)));
  }

  /**
   * What of `text` (with the tail held from the read before) the emulator gets now, secrets
   * masked; at the `end`, all that is held.
   */
  private screenText(text: ByteString, end = false): string {
    if (!this.find) return fromByteString(text);
    this.streamMask ??= new StreamMask(this.find, this.holdChars);
    const masked = end ? this.streamMask.end() : this.streamMask.push(text);
    if (this.streamMask.kind !== null) this.maskedKind = this.streamMask.kind;
    return fromByteString(masked);
  }

  private fromScreen(text: string): ByteString {
    const bytes = fromScreen(text);
    return hasMaskCells(bytes) ? placeholdersFor(bytes, this.maskedKind) : bytes;
  }

  /**
   * `text` with its secrets masked (a read on the emulator's or a long line's path). A part of
   * a long line without controls renders to itself, and the redactor sees it whole: left as is.
   */
  private masked(text: ByteString, longLine = false): ByteString {
    if (!this.find || (longLine && nextControl(text, 0) < 0)) return text;
    const masked = maskBeforeRender(text, this.find, true);
    if (masked.kind !== null) this.maskedKind = masked.kind;
    return masked.text;
  }

  private clean(block: ByteString): ByteString {
    return cleanLines(block, this.find, true);
  }

  private fastPath(text: ByteString): ByteString {
    const joined = this.pending + text;
    const newline = joined.lastIndexOf("\n");
    if (newline < 0) {
      this.pending = joined;
      if (joined.length <= MAX_PENDING_LINE) return "";
      // The held lines come before the long line's first part.
      const held = this.held === "" ? "" : this.clean(this.held);
      this.held = "";
      return held + this.flushLong();
    }
    this.pending = joined.slice(newline + 1);
    let complete = joined.slice(0, newline + 1);
    let first = "";
    if (this.renderer) {
      const firstEnd = complete.indexOf("\n");
      first = `${this.finishLong(complete.slice(0, firstEnd))}\n`;
      complete = complete.slice(firstEnd + 1);
    }
    return first + this.keepScreenful(complete);
  }

  /** Adds whole lines to the held screenful; returns the lines pushed out of it. */
  private keepScreenful(complete: ByteString): ByteString {
    if (this.hold === 0) return this.clean(complete);
    let cut = complete.length - 1;
    for (let kept = 0; kept < this.hold && cut > 0; kept++) {
      cut = complete.lastIndexOf("\n", cut - 1);
    }
    if (cut > 0) {
      // The new lines alone fill the screen: the held lines and the new ones above it go out.
      const held = this.held === "" ? "" : this.clean(this.held);
      this.held = complete.slice(cut + 1);
      return held + this.clean(complete.slice(0, cut + 1));
    }
    const all = this.held + complete;
    cut = all.length - 1;
    for (let kept = 0; kept < this.hold && cut > 0; kept++) cut = all.lastIndexOf("\n", cut - 1);
    if (cut <= 0) {
      this.held = all;
      return "";
    }
    this.held = all.slice(cut + 1);
    return this.clean(all.slice(0, cut + 1));
  }

  /** Renders an over-long pending line; emits it when it stays long after rendering. */
  private flushLong(): ByteString {
    this.renderer ??= new LineRenderer();
    this.renderer.feed(fromByteString(this.masked(this.pending, true)));
    this.pending = "";
    if (this.renderer.width <= MAX_PENDING_LINE) return "";
    return this.fromScreen(this.renderer.take());
  }

  private finishLong(rest: ByteString): ByteString {
    const renderer = this.renderer!;
    this.renderer = null;
    renderer.feed(fromByteString(this.masked(rest, true)));
    return this.fromScreen(renderer.take());
  }
}

/** Whether the text holds a trigger; the search starts at the first ESC. */
function hasTrigger(text: ByteString): boolean {
  const firstEscape = text.indexOf("\x1b");
  if (firstEscape >= 0) {
    EMULATOR_TRIGGER.lastIndex = firstEscape;
    if (EMULATOR_TRIGGER.test(text)) return true;
  }
  return text.includes("\x0b") || text.includes("\x0c");
}

/** A trigger cut in two by a read: the end of the last read plus the start of this one. */
function triggerSpans(pending: ByteString, text: ByteString): boolean {
  if (pending.length === 0) return false;
  return hasTrigger(pending.slice(-16) + text.slice(0, 16));
}

/** `\r`, backspace or a move left on a line longer than the width: it lands on a wrapped row. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control bytes is the point
const MOVE_BACK = /\r(?!\n)|\x08|\x1b\[[0-9;]*[DG`]/g;

function movesBackOverWrap(pending: ByteString, text: ByteString, cols: number): boolean {
  MOVE_BACK.lastIndex = 0;
  for (let hit = MOVE_BACK.exec(text); hit; hit = MOVE_BACK.exec(text)) {
    const lineStart = text.lastIndexOf("\n", hit.index) + 1;
    const length = lineStart === 0 ? pending.length + hit.index : hit.index - lineStart;
    if (length > cols) return true;
  }
  return false;
}

function fromScreen(text: string): ByteString {
  return text === "" ? "" : toByteString(text);
}

/** Cleans a block of whole lines (each ending in a newline): only lines with controls are touched. */
export function cleanLines(
  block: ByteString,
  find: SecretFinder | null = null,
  count = true,
): ByteString {
  if (nextControl(block, 0) < 0) return block;
  const text = block.includes("\x1b[") ? block.replace(SGR, "") : block;
  let out = "";
  let cursor = 0;
  for (let hit = nextControl(text, 0); hit >= 0; ) {
    const start = text.lastIndexOf("\n", hit) + 1;
    const newline = text.indexOf("\n", hit);
    const end = newline < 0 ? text.length : newline;
    out += text.slice(cursor, start) + renderLine(text.slice(start, end), find, count);
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

/**
 * One line as a terminal shows it; `\r` overwrites of plain ASCII skip the renderer. With a
 * finder, the secrets of its written-order text are masked first, then shown as placeholders.
 */
function renderLine(line: ByteString, find: SecretFinder | null, count: boolean): ByteString {
  if (find) {
    const masked = maskBeforeRender(line, find, count);
    if (masked.kind !== null) return placeholdersFor(renderBytes(masked.text), masked.kind);
  }
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
