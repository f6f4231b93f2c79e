// Baseline copy for bench/runner.ts and bench/secret-corpus.ts: main's redaction as of a6b54b4,
// before issue 29 (the held-out corpus). Nothing in src/ imports it.
// The lines of a block the built-in secret rules could redact, found cheaply: each rule needs a
// part that is rare in logs, found by indexOf (memchr in V8, far faster than a regex scan) of
// one char, checked first by the two chars before it against a set and only then confirmed by a
// sticky pattern. No line rule match spans a newline, so other lines hold nothing to redact.
// The scan also notes which context rules (context-rules.ts) the block needs. Used by
// redactor.ts; the secretlint backstop keeps the broader TRIGGERS (redact-rules.ts).
import { TOKEN_PREFIX_WORDS } from "./provider-rules.ts";

/** What the scan saw that a context rule needs (see context-rules.ts). */
export interface ContextHints {
  /** A `kind:` key (a Kubernetes object that may be a Secret). */
  kind: boolean;
  /** A `value:` key (a container env entry's value). */
  value: boolean;
  /** A `cookie:` or `Set-Cookie:` header. */
  cookie: boolean;
  /** A tab, in a block with a prompt or a `Value` header: cookie jars, tab-separated tables. */
  tab: boolean;
  /** A `$ ` (a shell prompt line, perhaps). */
  prompt: boolean;
}

export interface Candidates {
  lines: Array<[number, number]>;
  /** Lines with a secret word then two blanks or a tab: aligned table rows (context-rules.ts). */
  tableLines: Array<[number, number]>;
  hints: ContextHints;
}

/** Words a credential key ends with, before its separator (see keyClass in redact-rules.ts). */
const SECRET_WORDS = [
  "pass",
  "password",
  "passwd",
  "passphrase",
  "passcode",
  "pwd",
  "pw",
  "secret",
  "credential",
  "credentials",
  "creds",
  "key",
  "token",
  "auth",
  "authorization",
  "sig",
  "signature",
  "dsn",
  "pat",
  "jwt",
  "key-data",
  "key_data",
  "webhook",
  "webhook_url",
  "webhookurl",
];
/** Keys the context rules look for: `kind: Secret`, `value: …`, `Cookie: …`. */
const CONTEXT_WORDS = { kind: "kind", value: "value", cookie: "cookie" } as const;

const pair = (a: number, b: number) => (a << 8) | b;
/** The last two chars of each word, lowercased, as a cheap first check. */
function endings(words: readonly string[], lower: boolean): Map<number, string[]> {
  const map = new Map<number, string[]>();
  for (const word of words) {
    const w = lower ? word.toLowerCase() : word;
    const key = pair(w.charCodeAt(w.length - 2), w.charCodeAt(w.length - 1));
    map.set(key, [...(map.get(key) ?? []), w]);
  }
  return map;
}

const SECRET_ENDINGS = endings(SECRET_WORDS, true);
/** Before a `:` both kinds of word count: one lookup finds either. */
const COLON_ENDINGS = endings([...SECRET_WORDS, ...Object.values(CONTEXT_WORDS)], true);
const CONTEXT_WORD_SET = new Set<string>(Object.values(CONTEXT_WORDS));
const PREFIX_ENDINGS = {
  _: endings(TOKEN_PREFIX_WORDS.underscore, false),
  "-": endings(TOKEN_PREFIX_WORDS.dash, false),
};

/** At a `-` after a blank: a credential flag (`--api-key x`, `-p…` of mysql, `-AsPlainText`). */
const FLAG_AT =
  /-(?:-[\w-]*?(?:key|token|secret|pass\w*|pwd|pat|auth|credentials?|webhook(?:-url)?)[ \t]|[pau][ \t]?[^\s-]|AsPlainText)/iy;
/**
 * After `:` and a quote (a JSON or YAML value): shapes the dot regex leaves out (see
 * DOT_PREFIXES) and Google refresh tokens.
 */
const QUOTED_VALUE_AT =
  /[ \t]*["'](?:1\/\/0|dp\.(?:st|pt|sa|ct|scim|audit)\.|pat[A-Za-z0-9]{14}\.|[A-Za-z0-9]{14}\.atlasv1\.)/y;
/** After `:`: the `//` of a Discord webhook URL, bare or quoted (no other gate visits it). */
const DISCORD_WEBHOOK_AT = /\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\//y;
/** At an `A`: AWS key prefixes, Google's `AIza`, Atlassian, Bitbucket, FCM, Square's `EAAA`. */
const A_PREFIX_AT = /A(?:KIA|SIA|BIA|CCA|3T|Iza|TATT3|TBB|PA91b)|(?<=E)AAA/y;
/** At a `K`: Twilio's `SK` + 32 hex. */
const K_PREFIX_AT = /(?<=S)K[0-9a-fA-F]{32}/y;
/** At a `J`: the `eyJ` that starts JWTs (and 1Password, Sentry, Mapbox tokens), AWS's `IQoJ`. */
const JWT_START_AT = /(?<=ey|IQo)J/y;
/** At a `B`: `Bearer` (bearer_token is case-sensitive). */
const BEARER_AT = /Bearer/y;
/** At an `@`: URL user-info before it (a password, or a token as the user name). */
const URL_USERINFO_AT = /(?<=\/\/[^\s/@]+)@/y;

/** The lines a built-in rule could match, in order, and the hints for the context rules. */
export function scanCandidates(text: string, tables = true): Candidates {
  const lines = new LineSet(text);
  const hints: ContextHints = {
    kind: false,
    value: false,
    cookie: false,
    tab: false,
    prompt: text.includes("$ "),
  };
  scanPrefixEnds("_", text, lines);
  scanDashes(text, lines);
  scanDots(text, lines);
  scanAt("A", A_PREFIX_AT, text, lines);
  scanAt("K", K_PREFIX_AT, text, lines);
  scanAt("J", JWT_START_AT, text, lines);
  scanAt("B", BEARER_AT, text, lines);
  scanAt("@", URL_USERINFO_AT, text, lines);
  scanLiteral("dapi", text, lines);
  scanColons(text, lines, hints);
  scanSeparators("=", text, lines);
  scanSeparators(">", text, lines);
  scanSeparators("|", text, lines);
  scanSeparators(",", text, lines);
  // Aligned tables come from a command (`$ vault kv get`, `printenv | column -t`) or have a
  // `Value` column: scanning every double blank of indented text costs more than all else.
  const table = new LineSet(text);
  if (tables && (hints.prompt || text.includes("Value") || text.includes("VALUE"))) {
    scanDoubleBlanks(text, table);
    hints.tab = scanSeparators("\t", text, table);
  }
  return { lines: lines.sorted(), tableLines: table.sorted(), hints };
}

/** [start, end) of each line (without its newline) that a built-in rule could match, in order. */
export function ruleCandidateLines(text: string): Array<[number, number]> {
  return scanCandidates(text, false).lines;
}

/** Whether the text holds a `-----BEGIN` (searched by its rarer `B`). */
export function hasPemBegin(text: string): boolean {
  for (let at = text.indexOf("BEGIN", 5); at >= 0; at = text.indexOf("BEGIN", at + 1)) {
    if (text.startsWith("-----", at - 5)) return true;
  }
  return false;
}

/** Whether one of `words` (keyed by their last two chars) ends at `end`; lowercase compares. */
function wordEndsAt(
  text: string,
  end: number,
  table: Map<number, string[]>,
  lower: boolean,
): string | null {
  if (end < 2) return null;
  const fold = lower ? 0x20 : 0;
  const words = table.get(pair(text.charCodeAt(end - 2) | fold, text.charCodeAt(end - 1) | fold));
  if (!words) return null;
  for (const word of words) {
    const start = end - word.length;
    if (start < 0) continue;
    let same = true;
    for (let i = 0; i < word.length - 2 && same; i++) {
      const code = text.charCodeAt(start + i);
      same = (lower && code >= 0x41 && code <= 0x5a ? code | 0x20 : code) === word.charCodeAt(i);
    }
    if (same) return word;
  }
  return null;
}

/** Each `_` that ends a token prefix. */
function scanPrefixEnds(separator: "_", text: string, lines: LineSet): void {
  for (let at = text.indexOf(separator, 2); at >= 0; at = text.indexOf(separator, at + 1)) {
    if (prefixBefore(text, at, PREFIX_ENDINGS._)) at = lines.add(at);
  }
}

/** A token prefix ends at `at` (its rule judges what comes before and after). */
function prefixBefore(text: string, at: number, table: Map<number, string[]>): boolean {
  return wordEndsAt(text, at, table, false) !== null;
}

/** Each `-` that ends a token prefix, or starts a credential flag after a blank. */
function scanDashes(text: string, lines: LineSet): void {
  for (let at = text.indexOf("-", 1); at >= 0; at = text.indexOf("-", at + 1)) {
    const before = text.charCodeAt(at - 1);
    if (before === 0x20 || before === 0x09) {
      FLAG_AT.lastIndex = at;
      if (FLAG_AT.test(text)) at = lines.add(at);
    } else if (prefixBefore(text, at, PREFIX_ENDINGS["-"])) at = lines.add(at);
  }
}

/**
 * Prefixes that end in `.` (common after a letter): a regex V8 skips through on their starts,
 * cheaper than visiting every `.`. Only these four: each alternative added to it cost more
 * than a whole memchr pass (measured: doubling it to eight quadrupled its time), so Doppler's
 * `dp.st.`, Terraform's `.atlasv1.` and Airtable's `pat….` are found on lines their key
 * (`DOPPLER_TOKEN=`), a quote after a `:` or another gate picks (measured: one indexOf pass
 * for each of them, or adding them here, cost 25–40 % of redaction's time). Discord webhook
 * URLs are found by their `://` (scanColons).
 */
const DOT_PREFIXES = /(?:SG|hv[sbr]|ya29|hooks\.slack)\./g;

function scanDots(text: string, lines: LineSet): void {
  DOT_PREFIXES.lastIndex = 0;
  // test() rather than exec(): no match array per hit.
  while (DOT_PREFIXES.test(text)) DOT_PREFIXES.lastIndex = lines.add(DOT_PREFIXES.lastIndex - 1);
}

/** Each `char`, confirmed by a sticky pattern tried at it. */
function scanAt(char: string, pattern: RegExp, text: string, lines: LineSet): void {
  for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) {
    pattern.lastIndex = at;
    if (pattern.test(text)) at = lines.add(at);
  }
}

function scanLiteral(literal: string, text: string, lines: LineSet): void {
  for (let at = text.indexOf(literal); at >= 0; at = text.indexOf(literal, at + 1))
    at = lines.add(at);
}

/** Each `:` after a secret word; Telegram's `digits:AA…`, FCM's `…:APA91b`; context keys. */
function scanColons(text: string, lines: LineSet, hints: ContextHints): void {
  for (let at = text.indexOf(":"); at >= 0; at = text.indexOf(":", at + 1)) {
    const word = wordEndsAt(text, keyEnd(text, at), COLON_ENDINGS, true);
    if (word !== null && !CONTEXT_WORD_SET.has(word)) {
      at = lines.add(at);
      continue;
    }
    if (word !== null) hints[word as keyof typeof CONTEXT_WORDS] = true;
    if (text.charCodeAt(at + 1) === 0x41 && text.charCodeAt(at + 2) === 0x41) {
      const before = text.charCodeAt(at - 1);
      if (before >= 0x30 && before <= 0x39) at = lines.add(at);
    } else if (text.charCodeAt(at + 1) === 0x2f && text.charCodeAt(at + 2) === 0x2f) {
      DISCORD_WEBHOOK_AT.lastIndex = at + 1;
      if (DISCORD_WEBHOOK_AT.test(text)) at = lines.add(at);
    } else if (isQuoteAhead(text, at + 1)) {
      QUOTED_VALUE_AT.lastIndex = at + 1;
      if (QUOTED_VALUE_AT.test(text)) at = lines.add(at);
    }
  }
}

/** A quote at `at` or after one blank. */
function isQuoteAhead(text: string, at: number): boolean {
  let code = text.charCodeAt(at);
  if (code === 0x20) code = text.charCodeAt(at + 1);
  return code === 0x22 || code === 0x27;
}

/** Each `separator` after a secret word; whether the separator occurs at all. */
function scanSeparators(separator: string, text: string, lines: LineSet): boolean {
  let seen = false;
  for (let at = text.indexOf(separator); at >= 0; at = text.indexOf(separator, at + 1)) {
    seen = true;
    if (wordEndsAt(text, keyEnd(text, at), SECRET_ENDINGS, true) !== null) at = lines.add(at);
  }
  return seen;
}

/** Two blanks after a secret word (an aligned table column); runs of blanks are skipped. */
function scanDoubleBlanks(text: string, lines: LineSet): void {
  for (let at = text.indexOf("  ", 1); at >= 0; at = text.indexOf("  ", at + 2)) {
    const before = text.charCodeAt(at - 1);
    if (before === 0x20 || before === 0x0a || before === 0x09) continue;
    if (wordEndsAt(text, at, SECRET_ENDINGS, true) !== null) at = lines.add(at);
  }
}

/** Where a key ends before the separator at `at`: past blanks and one quote. */
function keyEnd(text: string, at: number): number {
  let end = at;
  let code = text.charCodeAt(end - 1);
  while (code === 0x20 || code === 0x09) code = text.charCodeAt(--end - 1);
  if (code === 0x22 || code === 0x27) end--;
  return end;
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
