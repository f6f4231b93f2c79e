// Baseline copy for bench/runner.ts and bench/secret-corpus.ts: main's redaction as of 8db3ca6,
// before issue 13 (see the RFC "Secret redaction rules"). Nothing in src/ imports it.
// The lines of a block the built-in secret rules could redact, found cheaply: each rule needs a
// part that is rare in logs, found by indexOf (memchr in V8, far faster than a regex scan) of
// one char confirmed by a sticky pattern there, or by one of two small regexes. No rule match
// spans a newline, so other lines hold nothing to redact. Used by redactor.ts; the secretlint
// backstop keeps the broader TRIGGERS (redact-rules.ts).
import { TOKEN_PREFIXES } from "./redact-rules.ts";

/**
 * At a `_` or `-` after a letter or digit (as every prefix ends): a token prefix before it, or
 * Notion's `secret_`, or age's `AGE-SECRET-KEY-`.
 */
const PREFIX_BEFORE = new RegExp(
  `(?<=(?:${TOKEN_PREFIXES.underscore}|secret)_|(?:${TOKEN_PREFIXES.dash}|AGE-SECRET-KEY)-)`,
  "y",
);
/** Prefixes that end in `.` (common after a letter): a regex V8 skips through on their starts. */
const DOT_PREFIXES = new RegExp(`(?:${TOKEN_PREFIXES.dot}|hooks\\.slack)\\.`, "g");
/** AWS key prefixes, Google's `AIza` and Databricks' `dapi`: V8 skips through on `A` and `d`. */
const AWS_GOOGLE_DATABRICKS = /A(?:KIA|SIA|BIA|CCA|GPA|IDA|IPA|NPA|NVA|ROA|PKA|3T|Iza)|dapi/g;
/** At a `J`: the `eyJ` that starts JWTs (and 1Password tokens). */
const JWT_START_AT = /(?<=ey)J/y;
/** At a `B`: `Bearer` (bearer_token is case-sensitive). */
const BEARER_AT = /Bearer/y;
/** At an `@`: URL user-info with a password before it (url_credentials, connection strings). */
const URL_USERINFO_AT = /(?<=\/\/[^\s/:@]*:[^\s/@]*)@/y;
/**
 * Ending just before a separator's optional quote and blanks: a word that credential-style
 * assignments and Authorization headers need their key to end with (see acceptAssignment).
 */
const SECRET_WORD_BEFORE =
  /(?<=(?:pass(?:word|wd|phrase)?|pwd|secret|credentials?|key|token|auth(?:orization)?))/iy;
/** The last two letters (lowercase) of each of those words, as a cheap first check. */
const SECRET_WORD_ENDINGS = new Set(
  ["ss", "rd", "wd", "se", "et", "al", "ls", "ey", "en", "th", "on"].map(
    (pair) => (pair.charCodeAt(0) << 8) | pair.charCodeAt(1),
  ),
);

/** [start, end) of each line (without its newline) that a built-in rule could match, in order. */
export function ruleCandidateLines(text: string): Array<[number, number]> {
  const lines = new LineSet(text);
  scanPrefixEnds("_", text, lines);
  scanPrefixEnds("-", text, lines);
  scanRegex(DOT_PREFIXES, text, lines);
  scanRegex(AWS_GOOGLE_DATABRICKS, text, lines);
  scanAt("J", JWT_START_AT, text, lines);
  scanAt("B", BEARER_AT, text, lines);
  scanAt("@", URL_USERINFO_AT, text, lines);
  scanSeparators(":", text, lines);
  scanSeparators("=", text, lines);
  return lines.sorted();
}

/** Whether the text holds a `-----BEGIN` (searched by its rarer `B`). */
export function hasPemBegin(text: string): boolean {
  for (let at = text.indexOf("BEGIN", 5); at >= 0; at = text.indexOf("BEGIN", at + 1)) {
    if (text.startsWith("-----", at - 5)) return true;
  }
  return false;
}

function scanRegex(pattern: RegExp, text: string, lines: LineSet): void {
  pattern.lastIndex = 0;
  // test() rather than exec(): no match array per hit.
  while (pattern.test(text)) pattern.lastIndex = lines.add(pattern.lastIndex - 1);
}

/** Each `_` or `-` that ends a token prefix. */
function scanPrefixEnds(separator: string, text: string, lines: LineSet): void {
  for (let at = text.indexOf(separator, 1); at >= 0; at = text.indexOf(separator, at + 1)) {
    const before = text.charCodeAt(at - 1);
    const letter = (before | 0x20) >= 0x61 && (before | 0x20) <= 0x7a;
    if (!letter && !(before >= 0x30 && before <= 0x39)) continue;
    PREFIX_BEFORE.lastIndex = at + 1;
    if (PREFIX_BEFORE.test(text)) at = lines.add(at);
  }
}

/** Each `char`, confirmed by a sticky pattern tried at it. */
function scanAt(char: string, pattern: RegExp, text: string, lines: LineSet): void {
  for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) {
    pattern.lastIndex = at;
    if (pattern.test(text)) at = lines.add(at);
  }
}

/** Separators (`:` or `=`) after a secret word, an optional quote and blanks. */
function scanSeparators(separator: string, text: string, lines: LineSet): void {
  for (let at = text.indexOf(separator); at >= 0; at = text.indexOf(separator, at + 1)) {
    let end = at;
    let code = text.charCodeAt(end - 1);
    while (code === 0x20 || code === 0x09) code = text.charCodeAt(--end - 1);
    if (code === 0x22 || code === 0x27) end--;
    if (end < 2) continue;
    // `| 0x20` lowercases ASCII letters and maps no other byte onto one.
    const ending = ((text.charCodeAt(end - 2) | 0x20) << 8) | (text.charCodeAt(end - 1) | 0x20);
    if (!SECRET_WORD_ENDINGS.has(ending)) continue;
    SECRET_WORD_BEFORE.lastIndex = end;
    if (SECRET_WORD_BEFORE.test(text)) at = lines.add(at);
  }
}

/** Lines hit by any gate, keyed by their end; add() returns the line end to resume from. */
class LineSet {
  private readonly found = new Map<number, number>();

  constructor(private readonly text: string) {}

  add(at: number): number {
    const newline = this.text.indexOf("\n", at);
    const end = newline < 0 ? this.text.length : newline;
    if (!this.found.has(end)) this.found.set(end, this.text.lastIndexOf("\n", at) + 1);
    return end;
  }

  sorted(): Array<[number, number]> {
    const lines: Array<[number, number]> = [];
    for (const [end, start] of this.found) lines.push([start, end]);
    return lines.sort((a, b) => a[0] - b[0]);
  }
}
