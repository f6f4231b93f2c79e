// Secrets masked in the raw bytes of output that moves the cursor, before it is rendered. A
// terminal shows `\r` overwrites, backspaces and cursor moves; rendering first and redacting the
// result would let a spinner that overwrites a key's first characters hide it from every rule.
// So the printable characters are read in the order they were written (escape sequences and
// controls skipped, no overwrite applied), the redactor's finds in that text are replaced, each
// character by one MASK_CHAR cell (so every later cursor move lands where it did), and after
// rendering each run of mask cells becomes one placeholder; on the emulator's path a stream mask
// searches each read with the tail of the one before. Called by control-stripper.ts.
import type { ByteString } from "./byte-text.ts";

/** A secret in the text given: [start, end) and its kind. */
export interface FoundSecret {
  start: number;
  end: number;
  kind: string;
}

/** Finds the secrets of a text; `count` says whether the find counts as a redaction. */
export type SecretFinder = (text: ByteString, count: boolean) => readonly FoundSecret[];

/** U+FDD0 (a noncharacter, never meant for interchange) as UTF-8 bytes: one masked cell. */
const MASK_CHAR = "\xef\xb7\x90";
const MASK_RUN = /(?:\xef\xb7\x90)+/g;
/** What writtenOrder skips, as one regex (close to it; the map is built only after a find). */
const NOT_WRITTEN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control bytes is the point
  /\x1b(?:\[[\x20-\x3f]*[\x40-\x7e]?|[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|[\x20-\x2f]*[\x30-\x7e]?)|\xc2[\x80-\x9f]|[\x00-\x08\x0a-\x1f\x7f]/g;

/**
 * `raw` with the characters of every secret found in its written-order text replaced by mask
 * cells, and the kind of the first secret; `raw` itself and null when none was found.
 */
export function maskBeforeRender(
  raw: ByteString,
  find: SecretFinder,
  count: boolean,
): { text: ByteString; kind: string | null } {
  // The common case, no secret: one regex pass and one find, without the index map.
  const quick = raw.replace(NOT_WRITTEN, "");
  if (quick.length < 6 || find(quick, false).length === 0) return { text: raw, kind: null };
  const { printable, at } = writtenOrder(raw);
  const found = find(printable, count);
  if (found.length === 0) return { text: raw, kind: null };
  const masked = new Uint8Array(raw.length);
  for (const secret of found) {
    for (let index = secret.start; index < secret.end; index++) masked[at[index]!] = 1;
  }
  let out = "";
  for (let index = 0; index < raw.length; index++) {
    if (!masked[index]) out += raw[index];
    // The lead byte of a character becomes one mask cell; its continuation bytes go with it.
    else if ((raw.charCodeAt(index) & 0xc0) !== 0x80) out += MASK_CHAR;
  }
  return { text: out, kind: found[0]!.kind };
}

/** A run of token characters still being written is held back at most this far. */
const MAX_HELD_TOKEN = 4096;

/**
 * Masks a stream rendered read by read (the emulator's path), so a secret split between two
 * reads is found whole: each read is searched together with the tail held from the one before,
 * and the tail that could begin a secret not yet complete (the last `hold` written characters,
 * `hold` the longest known value, and the run of non-space characters being written) is held
 * back until the next read or the end. A secret found across the cut is masked and let go whole.
 */
export class StreamMask {
  private carry: ByteString = "";
  /** The kind of the last secret masked. */
  kind: string | null = null;

  constructor(
    private readonly find: SecretFinder,
    private readonly hold: number,
  ) {}

  /** What of the stream so far can be rendered now, its secrets masked. */
  push(text: ByteString): ByteString {
    return this.take(this.carry + text, false);
  }

  /** The rest, masked: the stream has ended (or its last read is rendered now). */
  end(): ByteString {
    return this.take(this.carry, true);
  }

  private take(raw: ByteString, all: boolean): ByteString {
    this.carry = "";
    if (raw === "") return "";
    const { printable, at } = writtenOrder(raw);
    let cut = all ? printable.length : heldFrom(printable, this.hold);
    if (cut < printable.length) {
      for (const secret of this.find(printable, false)) {
        if (secret.start < cut && secret.end > cut) cut = secret.end;
      }
    }
    let rawCut = cut >= printable.length ? raw.length : at[cut]!;
    // Never between the bytes of one character.
    while (rawCut > 0 && rawCut < raw.length && (raw.charCodeAt(rawCut) & 0xc0) === 0x80) rawCut--;
    this.carry = raw.slice(rawCut);
    const head = raw.slice(0, rawCut);
    const masked = maskBeforeRender(head, this.find, true);
    if (masked.kind !== null) this.kind = masked.kind;
    return masked.text;
  }
}

/** Where the held tail of `printable` starts: `hold` characters back, or the run being written. */
function heldFrom(printable: ByteString, hold: number): number {
  const floor = Math.max(0, printable.length - MAX_HELD_TOKEN);
  let start = printable.length;
  while (start > floor && !/\s/.test(printable[start - 1]!)) start--;
  return Math.min(start, Math.max(0, printable.length - hold));
}

/** Each run of mask cells in rendered text replaced by `[REDACTED:kind]`. */
export function placeholdersFor(rendered: ByteString, kind: string): ByteString {
  return rendered.includes(MASK_CHAR) ? rendered.replace(MASK_RUN, `[REDACTED:${kind}]`) : rendered;
}

/** Whether rendered text holds mask cells (from this pass) at all. */
export function hasMaskCells(text: ByteString): boolean {
  return text.includes(MASK_CHAR);
}

/**
 * The printable bytes of `raw` in the order they were written, and for each its index in `raw`:
 * CSI, OSC/DCS/SOS/PM/APC strings, other escapes, C0 controls, DEL and C1 controls skipped.
 */
function writtenOrder(raw: ByteString): { printable: ByteString; at: number[] } {
  let printable = "";
  const at: number[] = [];
  for (let index = 0; index < raw.length; index++) {
    const code = raw.charCodeAt(index);
    if (code === 0x1b) index = escapeEnd(raw, index);
    else if (code === 0xc2 && isC1(raw.charCodeAt(index + 1))) index++;
    else if (code >= 0x20 && code !== 0x7f) {
      printable += raw[index];
      at.push(index);
    } else if (code === 0x09) {
      printable += "\t";
      at.push(index);
    }
  }
  return { printable, at };
}

const isC1 = (code: number) => code >= 0x80 && code <= 0x9f;

/** The index of the last byte of the escape sequence starting at `start`. */
function escapeEnd(raw: ByteString, start: number): number {
  const kind = raw[start + 1];
  if (kind === undefined) return start;
  if (kind === "[") {
    let index = start + 2;
    while (index < raw.length && !isFinal(raw.charCodeAt(index))) index++;
    return index;
  }
  if (kind === "]" || kind === "P" || kind === "X" || kind === "^" || kind === "_") {
    for (let index = start + 2; index < raw.length; index++) {
      if (raw.charCodeAt(index) === 0x07) return index;
      if (raw[index] === "\x1b" && raw[index + 1] === "\\") return index + 1;
    }
    return raw.length - 1;
  }
  let index = start + 1;
  while (index < raw.length && raw.charCodeAt(index) >= 0x20 && raw.charCodeAt(index) <= 0x2f)
    index++;
  return index;
}

const isFinal = (code: number) => code >= 0x40 && code <= 0x7e;
