// Baseline copy for bench/runner.ts and bench/secret-corpus.ts: main's redaction as of 8db3ca6,
// before issue 13 (see the RFC "Secret redaction rules"). Nothing in src/ imports it.
// Stage 3 of the output policy: secret redaction over blocks of whole lines (byte strings).
// PEM private-key blocks are cut first (they span lines); then cheap gates pick candidate lines
// (rule-candidates.ts; the broader TRIGGERS when the secretlint backstop runs), only those go
// through the rules, and only the secrets found are replaced in the block.
import { errorMessage } from "../../../src/errors.ts";
import type { ByteString } from "../../../src/runner/byte-text.ts";
import type { SecretlintBackstop } from "../../../src/runner/secretlint-backstop.ts";
import type { SecretRule } from "./redact-rules.ts";
import { SECRET_RULES, TRIGGERS } from "./redact-rules.ts";
import { hasPemBegin, ruleCandidateLines } from "./rule-candidates.ts";

/** A secret found in the candidate text: [start, end) and its kind. */
export interface SecretRange {
  start: number;
  end: number;
  kind: string;
}

const PEM_BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----/;
/** A PEM block whose END never comes stops being cut after this many bytes. */
const MAX_PEM_BYTES = 1024 * 1024;

export function placeholder(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/** What a Redactor carries from one block to the next, to continue a stream elsewhere. */
export interface RedactorState {
  pemEnd: string | null;
  pemBytes: number;
}

export class Redactor {
  /** Replacements so far, by kind. */
  readonly counts: Record<string, number> = {};
  /** Set while inside a PEM block that began in an earlier block: the END line to wait for. */
  private pemEnd: string | null = null;
  private pemBytes = 0;

  /** Failures of the secretlint backstop (our own rules still ran). */
  readonly errors: string[] = [];

  constructor(
    private backstop: SecretlintBackstop | null = null,
    state?: RedactorState,
  ) {
    if (state) ({ pemEnd: this.pemEnd, pemBytes: this.pemBytes } = state);
  }

  get state(): RedactorState {
    return { pemEnd: this.pemEnd, pemBytes: this.pemBytes };
  }

  async redact(block: ByteString): Promise<ByteString> {
    if (!this.backstop) return this.redactOwn(block);
    const { text, candidates, joined } = this.candidates(block, candidateLines);
    if (candidates.length === 0) return text;
    const ranges = findSecrets(joined);
    if (this.backstop) addMissing(ranges, await this.scanBackstop(this.backstop, joined));
    if (ranges.length === 0) return text;
    return this.apply(text, toTextRanges(ranges, candidates));
  }

  /** Redacts with the built-in rules only, synchronously. */
  redactOwn(block: ByteString): ByteString {
    const { text, candidates, joined } = this.candidates(block, ruleCandidateLines);
    if (candidates.length === 0) return text;
    const ranges = findSecrets(joined);
    if (ranges.length === 0) return text;
    return this.apply(text, toTextRanges(ranges, candidates));
  }

  /**
   * The block with private keys cut, the lines `find` picks, and those lines joined by newlines.
   * No rule match spans a newline, so the rules find the same secrets in the joined lines.
   */
  private candidates(block: ByteString, find: (text: string) => Array<[number, number]>) {
    let text = this.skipPemContinuation(block);
    if (hasPemBegin(text)) text = this.cutPrivateKeys(text);
    const candidates = find(text);
    const joined =
      candidates.length === 1
        ? text.slice(candidates[0]![0], candidates[0]![1])
        : candidates.map(([start, end]) => text.slice(start, end)).join("\n");
    return { text, candidates, joined };
  }

  /** The backstop failing leaves our own rules in force; the error is kept, once. */
  private async scanBackstop(backstop: SecretlintBackstop, text: string): Promise<SecretRange[]> {
    try {
      return await backstop.scan(text);
    } catch (error) {
      this.errors.push(`redact: secretlint failed: ${errorMessage(error)}`);
      this.backstop = null;
      return [];
    }
  }

  private apply(text: string, ranges: SecretRange[]): string {
    let out = "";
    let cursor = 0;
    for (const range of ranges) {
      out += text.slice(cursor, range.start) + placeholder(range.kind);
      cursor = range.end;
      this.count(range.kind);
    }
    return out + text.slice(cursor);
  }

  private count(kind: string): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
  }

  /** Replaces each PEM private key with one placeholder, across block boundaries. */
  private cutPrivateKeys(block: ByteString): ByteString {
    let text = block;
    let out = "";
    for (;;) {
      const begin = PEM_BEGIN.exec(text);
      if (!begin) return out + text;
      const endMarker = `-----END ${begin[1]}-----`;
      const end = text.indexOf(endMarker, begin.index + begin[0].length);
      out += text.slice(0, begin.index) + placeholder("private_key");
      this.count("private_key");
      if (end < 0) {
        this.pemEnd = endMarker;
        this.pemBytes = text.length - begin.index;
        return out;
      }
      text = text.slice(end + endMarker.length);
    }
  }

  /** Drops the rest of a PEM block that began in an earlier block. */
  private skipPemContinuation(block: ByteString): ByteString {
    if (this.pemEnd === null) return block;
    const end = block.indexOf(this.pemEnd);
    if (end < 0 && this.pemBytes + block.length <= MAX_PEM_BYTES) {
      this.pemBytes += block.length;
      return "";
    }
    const rest = end < 0 ? block : block.slice(end + this.pemEnd.length);
    this.pemEnd = null;
    return rest;
  }
}

/** [start, end) of each line (without its newline) where any backstop trigger fires, in order. */
export function candidateLines(text: string): Array<[number, number]> {
  const found = new Map<number, number>();
  for (const trigger of TRIGGERS) {
    trigger.lastIndex = 0;
    // test() rather than exec(): no match array per hit. No trigger spans a newline, so the
    // line of the match's last char is the line of the match.
    while (trigger.test(text)) {
      const last = trigger.lastIndex - 1;
      const newline = text.indexOf("\n", last);
      const end = newline < 0 ? text.length : newline;
      if (!found.has(end)) found.set(end, text.lastIndexOf("\n", last) + 1);
      trigger.lastIndex = end;
    }
  }
  const lines: Array<[number, number]> = [];
  for (const [end, start] of found) lines.push([start, end]);
  return lines.sort((a, b) => a[0] - b[0]);
}

/** Maps ranges in the candidate lines joined by newlines back to ranges in the whole text. */
function toTextRanges(ranges: SecretRange[], candidates: Array<[number, number]>): SecretRange[] {
  const mapped: SecretRange[] = [];
  let line = 0;
  let joinedStart = 0;
  for (const range of ranges) {
    while (line < candidates.length - 1) {
      const [start, end] = candidates[line]!;
      if (range.start <= joinedStart + end - start) break;
      joinedStart += end - start + 1;
      line++;
    }
    const [start, end] = candidates[line]!;
    const offset = start - joinedStart;
    mapped.push({
      start: range.start + offset,
      end: Math.min(range.end + offset, end),
      kind: range.kind,
    });
  }
  return mapped;
}

/** Every built-in rule over the text; overlaps resolved by position, then rule order. */
export function findSecrets(text: string): SecretRange[] {
  const ranges: Array<SecretRange & { rule: number }> = [];
  SECRET_RULES.forEach((rule, index) => {
    forEachMatch(rule, text, (span, kind) => {
      ranges.push({ start: span[0], end: span[1], kind, rule: index });
    });
  });
  ranges.sort((a, b) => a.start - b.start || a.rule - b.rule);
  return dropOverlaps(ranges);
}

/**
 * Each match of `rule` the rule accepts: its secret's span and kind, and where the whole match
 * starts. A rejected match with an unquoted value is searched again from that value, so a prefix
 * that looked like a key (grep's `path:12:`) cannot hide the assignment after it; a quoted one
 * (prose in a string) is not, which would only add false positives.
 */
function forEachMatch(
  rule: SecretRule,
  text: string,
  found: (span: [number, number], kind: string, matchStart: number) => void,
): void {
  const pattern = rule.pattern;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const kind = rule.accept ? rule.accept(match) : rule.kind;
    const span = secretSpan(match, rule.groups);
    if (kind && span) found(span, kind, match.index);
    else if (span && span[0] > match.index && !isQuote(text.charCodeAt(span[0] - 1))) {
      pattern.lastIndex = span[0];
    }
  }
}

/**
 * A point at or before `at` where `line` can be cut in two and each part redacted alone: not
 * inside any secret match (key and value together) that starts within `lookBack` bytes before
 * `at`. Only that window is scanned; a match reaching back further is cut at the window's start
 * (a key's tail keeps its verdict) or, at the line's start, at `at`.
 */
export function safeCut(line: ByteString, at: number, lookBack: number): number {
  const from = Math.max(0, at - lookBack);
  const window = line.slice(from);
  if (ruleCandidateLines(window).length === 0) return at;
  const spans = secretMatchSpans(window);
  let cut = at - from;
  for (let moved = true; moved; ) {
    moved = false;
    for (const [start, end] of spans) {
      if (start < cut && cut < end) {
        cut = start;
        moved = true;
      }
    }
  }
  return from + cut > 0 ? from + cut : at;
}

const isQuote = (code: number) => code === 0x22 || code === 0x27;

/**
 * The spans (from each accepted match's start to its secret's end) that a cut of `text` must not
 * fall inside: a cut there would leave a key without its value, or part of a token, on each side.
 */
export function secretMatchSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const rule of SECRET_RULES) {
    forEachMatch(rule, text, (span, _kind, matchStart) => spans.push([matchStart, span[1]]));
  }
  return spans;
}

function secretSpan(match: RegExpExecArray, groups?: readonly number[]): [number, number] | null {
  if (!groups) return [match.index, match.index + match[0].length];
  for (const group of groups) {
    const span = match.indices?.[group];
    if (span && span[1] > span[0]) return [span[0], span[1]];
  }
  return null;
}

function dropOverlaps<T extends SecretRange>(sorted: T[]): SecretRange[] {
  const kept: SecretRange[] = [];
  let reach = -1;
  for (const { start, end, kind } of sorted) {
    if (start < reach) continue;
    kept.push({ start, end, kind });
    reach = end;
  }
  return kept;
}

/** Adds the backstop's finds that overlap none of ours and stay within one line. */
function addMissing(ranges: SecretRange[], extra: readonly SecretRange[]): void {
  for (const range of extra) {
    const overlaps = ranges.some((own) => range.start < own.end && own.start < range.end);
    if (!overlaps) ranges.push(range);
  }
  ranges.sort((a, b) => a.start - b.start);
  const kept = dropOverlaps(ranges);
  ranges.splice(0, ranges.length, ...kept);
}
