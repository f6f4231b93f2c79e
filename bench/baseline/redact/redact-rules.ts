// Baseline copy for bench/runner.ts and bench/secret-corpus.ts: main's redaction as of 8db3ca6,
// before issue 13 (see the RFC "Secret redaction rules"). Nothing in src/ imports it.
// The built-in secret rules: documented provider token shapes, credential-style assignments,
// URL user-info, Authorization headers and JWTs, each naming the kind its placeholder shows;
// plus the cheap trigger regexes that pick candidate lines. All run on UTF-8 byte strings.

/** One rule: a global regex, the group(s) holding the secret (first that matched), a kind. */
export interface SecretRule {
  kind: string;
  /** Global; with the `d` flag when `groups` is set. */
  pattern: RegExp;
  groups?: readonly number[];
  /** Decides on a match; returns the kind to report, or null to keep the text. */
  accept?: (match: RegExpExecArray) => string | null;
}

const token = (kind: string, source: string): SecretRule => ({
  kind,
  pattern: new RegExp(`(?<![A-Za-z0-9_])(?:${source})(?![A-Za-z0-9_])`, "g"),
});

/**
 * A token whose prefix no word or encoding ends with (long, with a separator inside), matched
 * also when glued to the text before it (`xxxsk-ant-api03-…`): leaving it there would show it.
 */
const prefixed = (kind: string, source: string): SecretRule => ({
  kind,
  pattern: new RegExp(`(?:${source})(?![A-Za-z0-9_])`, "g"),
});

/** Provider token shapes, from the providers' documented prefixes and lengths. */
const PROVIDER_RULES: SecretRule[] = [
  token(
    "aws_access_key_id",
    "(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA)[A-Z0-9]{16}",
  ),
  token("github_token", "gh[pousr]_[A-Za-z0-9]{36,255}"),
  prefixed("github_token", "github_pat_[A-Za-z0-9_]{22,255}"),
  token("gitlab_token", "gl(?:pat|dt|rt|ptt|cbt|imt|oas|soat|ffct)-[A-Za-z0-9_\\-]{20,}"),
  token("slack_token", "xox[abposr]-[A-Za-z0-9\\-]{10,}"),
  token("slack_webhook", "https://hooks\\.slack\\.com/services/[A-Za-z0-9/_]+"),
  prefixed("anthropic_api_key", "sk-ant-(?:api|admin|oat)\\d\\d-[A-Za-z0-9_\\-]{20,}"),
  {
    kind: "openai_api_key",
    pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g,
    accept: (match) => (looksRandom(match[0].slice(3)) ? "openai_api_key" : null),
  },
  token("stripe_key", "(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}"),
  token("google_api_key", "AIza[A-Za-z0-9_\\-]{35}"),
  token("google_oauth_token", "ya29\\.[A-Za-z0-9_\\-]{20,}"),
  token("npm_token", "npm_[A-Za-z0-9]{36}"),
  token("huggingface_token", "hf_[A-Za-z0-9]{34,}"),
  token("groq_api_key", "gsk_[A-Za-z0-9]{48,}"),
  token("xai_api_key", "xai-[A-Za-z0-9]{60,}"),
  token("sendgrid_api_key", "SG\\.[A-Za-z0-9_\\-]{22}\\.[A-Za-z0-9_\\-]{43}"),
  token("shopify_token", "shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),
  token("linear_api_key", "lin_api_[A-Za-z0-9]{40}"),
  token("notion_token", "ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43}"),
  prefixed("pypi_token", "pypi-AgE[A-Za-z0-9_\\-]{50,}"),
  token("digitalocean_token", "do[pro]_v1_[a-f0-9]{64}"),
  token("vault_token", "hv[sbr]\\.[A-Za-z0-9_\\-]{24,}"),
  token("databricks_token", "dapi[a-f0-9]{32}(?:-\\d)?"),
  token("figma_token", "figd_[A-Za-z0-9_\\-]{40,}"),
  token("grafana_token", "glc_[A-Za-z0-9+/=_\\-]{32,}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
  token("vercel_token", "vc[picrk]_[A-Za-z0-9]{20,60}"),
  token("onepassword_token", "ops_eyJ[A-Za-z0-9+/=_\\-]{50,}"),
  prefixed("age_secret_key", "AGE-SECRET-KEY-1[02-9ac-hj-np-z]{58}"),
  token("jwt", "eyJ[A-Za-z0-9_\\-]{8,}\\.eyJ[A-Za-z0-9_\\-]{8,}\\.[A-Za-z0-9_\\-]{8,}"),
];

const DATABASE_SCHEMES =
  /^(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver|jdbc:.*|clickhouse|cockroachdb)$/i;

/** A grep-style `path:line:` (or `path:line:col:`, context `path-line-`) taken into a key. */
const LINE_PREFIX = /^.*?(?:[:-]\d+)+[:-]/;

/** Credentials in the structure around them: URLs, headers, assignments. */
const STRUCTURAL_RULES: SecretRule[] = [
  {
    kind: "url_credentials",
    pattern: /\b([a-z][a-z0-9+.:-]*):\/\/[^\s/:@'"<>]*:([^\s/@'"<>]+)@/dgi,
    groups: [2],
    accept: (match) => {
      if (isPlaceholder(match[2]!)) return null;
      const scheme = match[1]!.replace(LINE_PREFIX, "");
      return DATABASE_SCHEMES.test(scheme) ? "connection_string" : "url_credentials";
    },
  },
  {
    kind: "authorization_header",
    pattern:
      /\b(?:Proxy-)?Authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:Bearer|Basic|Token|Digest|Bot|ApiKey|Negotiate)[ \t]+)?([^\s"',;]{6,})/dgi,
    groups: [1],
    accept: (match) => (isPlaceholder(match[1]!) ? null : "authorization_header"),
  },
  {
    kind: "bearer_token",
    pattern: /\bBearer[ \t]+([A-Za-z0-9\-._~+/]{16,}=*)/dg,
    groups: [1],
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
  },
];

export const SECRET_RULES: readonly SecretRule[] = [...PROVIDER_RULES, ...STRUCTURAL_RULES];

/**
 * Token prefixes (regex sources) before the `_`, `-` or `.` that ends them, so a scan can stop
 * at that char and look behind. Each ends in a letter or digit.
 */
export const TOKEN_PREFIXES = {
  underscore:
    "gh[pousr]|github_pat|[sr]k_live|[sr]k_test|whsec|hf|gsk|ops|glc|glsa|npm|lin_api|ntn|shp(?:at|ss|ca|pa)|do[pro]_v1|figd|vc[picrk]",
  dash: "sk|gl(?:pat|dt|rt|ptt|cbt|imt|oas|soat|ffct)|pypi|xai|xox[abposr]",
  dot: "SG|hv[sbr]|ya29",
} as const;

const PREFIX_LOOKBEHIND = [
  `(?:${TOKEN_PREFIXES.underscore})_`,
  `(?:${TOKEN_PREFIXES.dash})-`,
  `(?:${TOKEN_PREFIXES.dot})\\.`,
].join("|");

/**
 * Candidate-line triggers for the secretlint backstop, whose rules reach further than ours: each
 * a few literals or one rare char class. Three passes (merged from six: the per-separator
 * lookbehinds share one class, the fixed literals share one alternation). The built-in rules
 * use the narrower, faster gates in rule-candidates.ts.
 */
export const TRIGGERS: readonly RegExp[] = [
  /pass|secret|token|auth|credential|pwd|bearer|key/gi,
  new RegExp(`[-_.](?<=${PREFIX_LOOKBEHIND})`, "g"),
  /A(?:KIA|SIA|BIA|CCA|GPA|IDA|IPA|NPA|NVA|ROA|PKA|3T|Iza)|dapi|eyJ|-----BEGIN|hooks\.slack\.com|\/\/[^\s/:@]*:[^\s/@]*@/g,
];

const PASSWORD_WORDS =
  /(?:password|passwd|passphrase|pass|pwd|secret|credentials?|private[_.-]?key)$/i;
const TOKEN_WORDS =
  /(?:token|api[_.-]?key|apikey|access[_.-]?key|auth|secret[_.-]?key|signing[_.-]?key|encryption[_.-]?key|master[_.-]?key|session[_.-]?key|account[_.-]?key)$/i;
const TYPE_NAMES =
  /^(?:string|number|boolean|bigint|any|unknown|never|object|str|int|bool|bytes|String|Optional|Option|required|optional)\b/;
const MEMBER_EXPRESSION = /^[A-Za-z_$][\w$]*(?:\.[\w$]+)+(?:\(.*)?$|\(/;

function acceptAssignment(match: RegExpExecArray): string | null {
  const key = match[1]!;
  const value = match[2] ?? match[3] ?? match[4] ?? "";
  if (value === "" || isPlaceholder(value) || TYPE_NAMES.test(value)) return null;
  if (MEMBER_EXPRESSION.test(value) || isWorkingDirectory(key, value)) return null;
  const password = wordAtBoundary(key, PASSWORD_WORDS);
  if (password && value.length >= 4) return "password";
  if (wordAtBoundary(key, TOKEN_WORDS) && looksRandom(value)) return "secret";
  return null;
}

/** `PWD=/home/x` (env, printenv): the shell's working directory, not a password. */
function isWorkingDirectory(key: string, value: string): boolean {
  const name = key.replace(LINE_PREFIX, "");
  return /^pwd$/i.test(name) && (value.startsWith("/") || value.startsWith("~"));
}

/** The key ends with a secret word that starts at a separator, a camelCase hump or the start. */
function wordAtBoundary(key: string, words: RegExp): boolean {
  const found = words.exec(key);
  if (!found) return false;
  const at = found.index;
  if (at === 0) return true;
  const before = key[at - 1]!;
  if (before === "_" || before === "." || before === "-") return true;
  const first = key[at]!;
  return before >= "a" && before <= "z" && first >= "A" && first <= "Z";
}

const PLACEHOLDER =
  /^(?:\*+|x{3,}|\.{3,}|<[^>]*>|\$\{?[\w.:-]+\}?|\$\(.*\)|%\w+%|\{\{.*\}\}|null|nil|none|true|false|undefined|\[REDACTED[^\]]*\]?)$/i;

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}

/** Long enough, mixed character classes and enough Shannon entropy to be a key, not a word. */
export function looksRandom(value: string): boolean {
  if (value.length < 12) return false;
  let classes = 0;
  if (/[a-z]/.test(value)) classes++;
  if (/[A-Z]/.test(value)) classes++;
  if (/[0-9]/.test(value)) classes++;
  if (/[^A-Za-z0-9]/.test(value)) classes++;
  return classes >= 2 && shannonEntropy(value) >= 3;
}

function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
