// The built-in secret rules: provider token shapes (provider-rules.ts), credentials in URLs,
// headers, cookies, flags, tables, XML and credential-style assignments, each naming the kind
// its placeholder shows. Which key names hold a credential is decided here (keyClass), which
// values are not secrets in secret-values.ts. All run on UTF-8 byte strings, line by line.
import { PROVIDER_SHAPES, TOKEN_PREFIXES } from "./provider-rules.ts";
import { isDocumentStandIn, isLocation, isPlaceholder, looksRandom } from "./secret-values.ts";

/** One rule: a global regex, the group(s) holding the secret (first that matched), a kind. */
export interface SecretRule {
  kind: string;
  /** Global; with the `d` flag when `groups` is set. */
  pattern: RegExp;
  groups?: readonly number[];
  /** Decides on a match; returns the kind to report, or null to keep the text. */
  accept?: (match: RegExpExecArray) => string | null;
  /** How many chars at the end of the secret's span belong to the text around it. */
  trimEnd?: (match: RegExpExecArray) => number;
}

const PROVIDER_RULES: SecretRule[] = PROVIDER_SHAPES.map((shape) => ({
  kind: shape.kind,
  pattern: new RegExp(
    shape.glued
      ? `(?:${shape.source})(?![A-Za-z0-9_])`
      : `(?<![A-Za-z0-9_])(?:${shape.source})(?![A-Za-z0-9_])`,
    "g",
  ),
  // A mask after the vendor's prefix (`sk_live_xxxxxxxx`) is the placeholder rule's, and so is
  // one that ends a URL (`…/services/T00000000/B00000000/XXXXXXXX`).
  accept: (match) =>
    isPlaceholder(match[0]) ||
    isDocumentStandIn(match[0]) ||
    isPlaceholder(match[0].slice(match[0].lastIndexOf("/") + 1))
      ? null
      : shape.kind,
}));

/** OpenAI keys share `sk-` with too much prose and code to trust the prefix alone. */
const OPENAI_RULE: SecretRule = {
  kind: "openai_api_key",
  pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g,
  accept: (match) => (looksRandom(match[0].slice(3)) ? "openai_api_key" : null),
};

const DATABASE_SCHEMES =
  /^(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver|jdbc:.*|clickhouse|cockroachdb)$/i;

/** A grep-style `path:line:` (or `path:line:col:`, context `path-line-`) taken into a key. */
const LINE_PREFIX = /^.*?(?:[:-]\d+)+[:-]/;

/** Credentials in the structure around them: URLs, headers, flags, tables, assignments. */
const STRUCTURAL_RULES: SecretRule[] = [
  {
    kind: "url_credentials",
    pattern: /\b([a-z][a-z0-9+.:-]*):\/\/(?:[^\s/:@'"<>]*:([^\s/@'"<>]+)|([^\s/:@'"<>]{16,}))@/dgi,
    groups: [2, 3],
    accept: (match) => {
      const password = match[2];
      if (password === undefined) return looksRandom(match[3]!, 16) ? "url_credentials" : null;
      // `[user[:password]@]`: a usage text's brackets close after the word.
      const bare = password.slice(0, password.length - unclosedTail(password));
      if (isPlaceholder(bare) || isDocumentStandIn(bare)) return null;
      const scheme = match[1]!.replace(LINE_PREFIX, "");
      return DATABASE_SCHEMES.test(scheme) ? "connection_string" : "url_credentials";
    },
  },
  {
    // A random user name before a password (a legacy Sentry DSN's `public:secret`) is a key too.
    kind: "url_credentials",
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/([^\s/:@'"<>]{16,}):[^\s/@'"<>]+@/dgi,
    groups: [1],
    accept: (match) => (looksRandom(match[1]!, 16) ? "url_credentials" : null),
  },
  {
    // A query inside a percent-encoded URL: `%3Fsv%3D…%26sig%3D…` (a SAS URL as a parameter).
    kind: "url_credentials",
    pattern: /%(?:3[Ff]|26)([A-Za-z_.-]+)%3[Dd]((?:[^%&\s"'#<>;]|%(?!26))+)/dg,
    groups: [2],
    accept: (match) =>
      acceptValue(keyClass(match[1]!), match[2]!, true) ? "url_credentials" : null,
  },
  {
    kind: "url_credentials",
    pattern: /[?&;]([A-Za-z_.-]+)=([^&\s"'#<>;]+)/dg,
    groups: [2],
    accept: (match) =>
      acceptValue(keyClass(match[1]!), match[2]!, true) ? "url_credentials" : null,
  },
  {
    kind: "authorization_header",
    pattern:
      /(?:\b|(?<=\\[rn]))(?:Proxy-)?Authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:Bearer|Basic|Token|Digest|Bot|ApiKey|Negotiate|SSWS|token)[ \t]+)?([^\s"',;\\]{6,})/dgi,
    groups: [1],
    accept: (match) => (isPlaceholder(match[1]!) ? null : "authorization_header"),
  },
  {
    kind: "bearer_token",
    pattern: /\bBearer[ \t]+([A-Za-z0-9\-._~+/]{16,}=*)/dg,
    groups: [1],
  },
  {
    kind: "password",
    pattern:
      /\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n]*?[ \t]-p([^\s-][^\s]*)/dg,
    groups: [1],
  },
  {
    kind: "password",
    pattern:
      /\b(?:(?:docker|podman|nerdctl|buildah|helm registry|oras)[ \t]+login\b[^\n]*?[ \t]-p|sshpass[ \t]+-p|redis-cli\b[^\n]*?[ \t]-a)[ \t]*(["']?)([^\s"']+)\1/dg,
    groups: [2],
    accept: (match) => (isPlaceholder(match[2]!) ? null : "password"),
  },
  {
    // `user:password` after a credential flag: curl's `-u` (also on a continued line), wget's
    // `--user`, jenkins-cli's `-auth`, httpie's `-a`.
    kind: "password",
    pattern:
      /(?<=[ \t])(?:-u|--user|-a|-auth|--auth|--basic-auth)[ \t=]*["']?[^:\s"'$]+:([^\s"']+)/dg,
    groups: [1],
    accept: (match) => (isPlaceholder(match[1]!) ? null : "password"),
  },
  {
    kind: "password",
    pattern: /ConvertTo-SecureString[ \t]+(?:-String[ \t]+)?["']([^"'\n]+)["']/dg,
    groups: [1],
  },
  {
    // JSON inside a JSON string: `"SecretString": "{\"password\":\"…\"}"`.
    kind: "secret_assignment",
    pattern: /\\"([A-Za-z_][\w.-]*)\\":[ \t]*\\"((?:[^"\\\n]|\\[^"\n])*)\\"/dg,
    groups: [2],
    accept: (match) => kindFor(keyClass(match[1]!), match[2]!, true),
  },
  {
    kind: "secret_assignment",
    pattern: /\bdefine\([ \t]*['"]([\w]+)['"][ \t]*,[ \t]*['"]([^'"\n]*)['"]/dg,
    groups: [2],
    accept: (match) => kindFor(keyClass(match[1]!), match[2]!, true),
  },
  {
    kind: "secret_assignment",
    pattern: /<([A-Za-z_][\w.:-]*)>([^<>\n]+)<\/\1>/dg,
    groups: [2],
    accept: (match) => kindFor(keyClass(match[1]!), match[2]!, true),
  },
  {
    kind: "secret_assignment",
    pattern: /\bkey="([^"\n]+)"[ \t]+value="([^"\n]*)"/dg,
    groups: [2],
    accept: (match) => kindFor(keyClass(match[1]!), match[2]!, true),
  },
  {
    kind: "secret_assignment",
    pattern: /(?<![\w-])--([A-Za-z][\w-]*)[ \t]+(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'`-][^\s"'`]*))/dg,
    groups: [2, 3, 4],
    accept: (match) =>
      kindFor(keyClass(match[1]!), match[2] ?? match[3] ?? match[4]!, match[4] === undefined),
  },
  {
    kind: "secret_assignment",
    // A markdown table row: `| NAME | value |`.
    pattern: /(?<=\|)[ \t]*([A-Za-z_][\w.-]*)[ \t]*\|[ \t]*([^\s|]+)[ \t]*\|/dg,
    groups: [2],
    accept: acceptTableCell,
  },
  {
    kind: "secret_assignment",
    // The key starts only at the first letter of a run of key chars: a later start ends the key
    // at the same place, so it can only repeat the first start's result, and trying each one
    // was quadratic in the run's length (20 KB of letters on a candidate line took 0.35 s).
    pattern:
      /(?=[A-Za-z_])(?<![A-Za-z_][A-Za-z0-9_.-]*?)([A-Za-z_][A-Za-z0-9_.-]*)["']?[ \t]*(?::=|=>|[:=])[ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'`,;]+))/dg,
    groups: [2, 3, 4],
    accept: acceptAssignment,
    trimEnd: (match) => (match[4] === undefined ? 0 : unclosedTail(match[4])),
  },
];

export const SECRET_RULES: readonly SecretRule[] = [
  ...PROVIDER_RULES,
  OPENAI_RULE,
  ...STRUCTURAL_RULES,
];

/**
 * Candidate-line triggers for the secretlint backstop, whose rules reach further than ours: each
 * a few literals or one rare char class. The built-in rules use the narrower, faster gates in
 * rule-candidates.ts.
 */
export const TRIGGERS: readonly RegExp[] = [
  /pass|secret|token|auth|credential|pwd|bearer|key/gi,
  new RegExp(
    `[-_.](?<=${[
      `(?:${TOKEN_PREFIXES.underscore})_`,
      `(?:${TOKEN_PREFIXES.dash})-`,
      `(?:${TOKEN_PREFIXES.dot})\\.`,
    ].join("|")})`,
    "g",
  ),
  /A(?:KIA|SIA|BIA|CCA|GPA|IDA|IPA|NPA|NVA|ROA|PKA|3T|Iza)|dapi|eyJ|-----BEGIN|hooks\.slack\.com|\/\/[^\s/:@]*:[^\s/@]*@/g,
];

/** What a key name says its value is: a password (any value), a token (random), or weak. */
export type KeyClass = "password" | "token" | "weak";

const PASSWORD_WORDS = new Set([
  "password",
  "passwd",
  "pass",
  "pwd",
  "passphrase",
  "passcode",
  "secret",
  "credentials",
  "credential",
  "creds",
  "pw",
]);
const TOKEN_WORDS = new Set([
  "token",
  "apikey",
  "pat",
  "auth",
  "sig",
  "signature",
  "cookie",
  "sessionid",
  "session",
  "jwt",
  "accesskey",
  "secretkey",
  "privatekey",
  "authorization",
  "dsn",
  "phpsessid",
  "jsessionid",
  "sid",
  "authtoken",
  "accesstoken",
  "refreshtoken",
]);
/** Words that make a key's value public: `publishable_key`, `public_key`, `recipient`. */
const NOT_SECRET_WORDS = new Set(["public", "publishable", "pub", "recipient", "fingerprint"]);
/** Words before `key` that make it an identifier, not a credential: `cache_key`, `gpg_key`. */
const KEY_QUALIFIERS = new Set([
  "search",
  "idempotency",
  "cache",
  "partition",
  "sort",
  "primary",
  "foreign",
  "routing",
  "object",
  "row",
  "lookup",
  "dedup",
  "i18n",
  "translation",
  "gpg",
  "map",
  "hash",
  "kid",
  "ssh",
  "anon",
  "index",
  "sorting",
  "group",
  "unique",
  "composite",
  "hot",
  "react",
  "dict",
]);
/** One-word keys that end with a secret word: `clientsecret`, `personalaccesstoken`. */
const COMPOUND_ENDING = /(?:secret|token|password|key)$/;
/** A trailing word that names the encoding, not the thing: `client-key-data`, `token_value`. */
const ENCODING_WORDS = new Set(["data", "value", "b64", "base64", "raw", "str", "string", "base"]);
/** A trailing version or index: `ses_smtp_password_v4`, `API_KEY_2`. */
const VERSION_WORD = /^(?:v?\d+)$/;

/** The words of a key: `DB_PASSWORD` → db password, `apiKeySecret` → api key secret. */
function keyWords(key: string): string[] {
  return key
    .replace(LINE_PREFIX, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

export function keyClass(key: string): KeyClass | null {
  // `password_` is a prefix of some other name, not a key that ends with a secret word.
  if (!/[A-Za-z0-9]$/.test(key)) return null;
  // Terraform's credentials by host: `TF_TOKEN_app_terraform_io`.
  if (/(?:^|[^A-Za-z])TF_TOKEN_/.test(key)) return "token";
  const bare = key.replace(LINE_PREFIX, "");
  // `PASS` alone in capitals is a test runner's verdict (`--- PASS: TestX`, `PASS  src/…`).
  if (bare === "PASS") return null;
  const words = keyWords(key);
  if (words.length > 1 && VERSION_WORD.test(words.at(-1)!)) words.pop();
  if (words.length > 1 && ENCODING_WORDS.has(words.at(-1)!)) words.pop();
  const last = words.at(-1);
  if (last === undefined || words.some((word) => NOT_SECRET_WORDS.has(word))) return null;
  if (PASSWORD_WORDS.has(last)) return "password";
  if (TOKEN_WORDS.has(last)) return "token";
  if (last === "key") {
    if (words.some((word) => KEY_QUALIFIERS.has(word))) return null;
    return words.length > 1 ? "token" : "weak";
  }
  const compound = COMPOUND_ENDING.exec(last);
  if (compound)
    return compound[0] === "password" || compound[0] === "secret" ? "password" : "token";
  return null;
}

/** Whether a value under a key of this class is a secret (after the placeholder rule). */
export function acceptValue(
  cls: KeyClass | null,
  value: string,
  quoted: boolean,
  after = "",
): boolean {
  if (cls === null || isPlaceholder(value) || isDocumentStandIn(value)) return false;
  if (isLocation(value) || URL_VALUE.test(value)) return false;
  if (cls === "password") return value.length >= 4 && !(!quoted && isProse(value, after));
  return looksRandom(value, cls === "weak" ? 16 : 12);
}

/** The kind a value under a key of class `cls` is redacted as, or null when it is not a secret. */
export function kindFor(
  cls: KeyClass | null,
  value: string,
  quoted: boolean,
  after = "",
): string | null {
  if (!acceptValue(cls, value, quoted, after)) return null;
  return cls === "password" ? "password" : "secret";
}

/** A URL: the URL rules judge its user-info and query, not the key it is assigned to. */
const URL_VALUE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** A table cell: as an assignment, but a dotted lowercase name (`kubernetes.io/tls`) is a type. */
export function acceptTableCell(match: RegExpExecArray): string | null {
  if (/^[a-z][a-z0-9-]*(?:[./][a-z][a-z0-9-]*)+$/.test(match[2]!)) return null;
  return kindFor(keyClass(match[1]!), match[2]!, true);
}

/** `passwd: Authentication token manipulation error`: a word that goes on as a sentence. */
function isProse(value: string, after: string): boolean {
  return /^[A-Za-z]+$/.test(value) && /^[ \t]+\S/.test(after);
}

const TYPE_AFTER = /^[ \t]*[|)\],]/;
const MEMBER_EXPRESSION = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(.*)?$|^[\w$.]+\(/;

/** `req.headers.authorization`, `load(x)`: code, unless a part is random (a dotted token). */
function isExpression(value: string): boolean {
  if (!MEMBER_EXPRESSION.test(value)) return false;
  return !value.split(/[.(]/).some((part) => looksRandom(part, 12));
}

function acceptAssignment(match: RegExpExecArray): string | null {
  const key = match[1]!;
  const quoted = match[4] === undefined;
  const raw = quoted ? (match[2] ?? match[3] ?? "") : match[4]!;
  const value = quoted ? raw : raw.slice(0, raw.length - unclosedTail(raw));
  if (!quoted && (isExpression(value) || TYPE_AFTER.test(value) || isPlaceholder(raw))) return null;
  if (isArnPart(match) || PUBLIC_BEFORE.test(lineBefore(match, 12))) return null;
  const end = match.index + match[0].length;
  // `token::tests` (a path), `${TOKEN:?msg}` (a parameter expansion): no assignment.
  if (value.startsWith(":") || lineBefore(match, 2).endsWith("${")) return null;
  if (!quoted && isBracketedPhrase(value, match.input, end)) return null;
  const after = match.input.slice(end, end + 2);
  return kindFor(keyClass(key), value, quoted, after);
}

/**
 * How many closing brackets end an unquoted value without an opening one in it: they belong to
 * the code around it (`{secret:null}`, `connect(password=x)`), while `[REDACTED:password]` or
 * `f(x)` keeps its own.
 */
function unclosedTail(value: string): number {
  const opens: number[] = [];
  let unmatchedFrom = value.length;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const opener = CLOSER_OF.get(code);
    if (opener === undefined) {
      if (OPENERS.has(code)) opens.push(code);
      unmatchedFrom = value.length;
    } else if (opens.at(-1) === opener) {
      opens.pop();
      unmatchedFrom = value.length;
    } else if (unmatchedFrom === value.length) unmatchedFrom = i;
  }
  return value.length - unmatchedFrom;
}

const OPENERS: ReadonlySet<number> = new Set([0x28, 0x5b, 0x7b]);
/** `)` → `(`, `]` → `[`, `}` → `{`. */
const CLOSER_OF: ReadonlyMap<number, number> = new Map([
  [0x29, 0x28],
  [0x5d, 0x5b],
  [0x7d, 0x7b],
]);

/** `<set to the key 'X' in secret 'y'>`, `(sensitive value)`: a phrase in brackets, not a value. */
function isBracketedPhrase(value: string, input: string, end: number): boolean {
  const close = { "<": ">", "(": ")", "[": "]" }[value[0] ?? ""];
  if (close === undefined || value.includes(close)) return false;
  const lineEnd = input.indexOf("\n", end);
  const rest = input.slice(end, lineEnd < 0 ? input.length : lineEnd);
  const at = rest.indexOf(close);
  return at >= 0 && isPlaceholder(value + rest.slice(0, at + 1));
}

/** `public key: …` (wg, ssh-keygen): the word before the key makes it public. */
const PUBLIC_BEFORE = /\bpublic[ \t]$/i;

/** Up to `length` chars of the match's line before it. */
function lineBefore(match: RegExpExecArray, length: number): string {
  const lineStart = match.input.lastIndexOf("\n", match.index) + 1;
  return match.input.slice(Math.max(lineStart, match.index - length), match.index);
}

/** `arn:aws:secretsmanager:…:secret:prod/db-password`: a resource name, not an assignment. */
function isArnPart(match: RegExpExecArray): boolean {
  return /\barn:[\w-]+:[^\s"']*$/.test(lineBefore(match, 200));
}
