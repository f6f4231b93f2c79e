// The placeholder rule and the value tests of credential-style assignments: which values in a
// credential position are not secrets (references, placeholders, masks, non-values, ciphertext,
// public material, paths), and which look random enough to be a key. Called by redact-rules.ts,
// context-rules.ts and known-secrets.ts; the rule is issue 13's, documented in docs/tools.md.

/** References to a secret held elsewhere: env, CI and template variables, vaults, ARNs. */
const REFERENCE =
  /^(?:\$\{.*|\$[A-Za-z_][\w]*|\$\(.*|%[\w.-]+%|#\{[\w.-]+\}#?|\{\{.*|\{%.*|<%.*|@Microsoft\.KeyVault\(.*|op:\/\/\S+|(?:vault|sops|awssm|gcpsm|azkv|ref\+\w+):\/\/\S*|arn:aws[\w-]*:(?:secretsmanager|ssm|kms):\S+|!vault\b.*|ENC\[.*|\$ANSIBLE_VAULT.*)$/;
/** Code that reads a secret rather than holding it: `process.env.X`, `os.environ["X"]`. */
const CODE_REFERENCE =
  /^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|getenv|env\(|ENV\[|Deno\.env|System\.getenv|settings\.|config\.|self\.|this\.|var\.|local\.|data\.|module\.|random_\w+\.|secrets\.|vars\.|Environment\.|\$env:)/;
/** Words that mark a value as a stand-in, not a credential. */
const PLACEHOLDER_WORD =
  /^(?:<[^>]*>|\[[^\]]*\]|\{[\w-]*\}|\(?(?:redacted|masked|hidden|filtered|removed|none|null|empty|unset|not set|sensitive(?: value)?)\)?|your[-_ ]?[\w-]*|[\w-]*(?:_here|-here)|replace[-_ ]?me|change[-_ ]?me|placeholder|\.\.\.|…|\u00e2\u0080\u00a6)$/i;
/** A stand-in after a vendor's prefix: `sk_live_REPLACE_ME`, `ghp_your_token_here`. */
const PREFIXED_PLACEHOLDER =
  /^(?:[A-Za-z0-9]{1,12}[_.-]){1,3}(?:your[-_]?[\w-]*|[\w-]*(?:_here|-here)|replace[-_]?me|change[-_]?me|placeholder)$/i;
/** A value cut short and described: `AQoDYXdzEJr...<remainder of session token>`. */
const ELIDED = /^[^\s<>]{0,24}(?:\.\.\.|…)[ \t]*<[^<>]*>$/;
/** The literal word a document writes where a password goes: `postgres://user:password@host`. */
const PASSWORD_WORD = /^(?:password|passwd|pass|secret)$/i;
/** A vendor's documented example value: AWS's `AKIAIOSFODNN7EXAMPLE`, `…bPxRfiCYEXAMPLEKEY`. */
const DOCUMENTED_EXAMPLE = /EXAMPLE(?:KEY)?$/;
/** Masks: only `x`, `*`, `•`, `#` or `.` (after an optional vendor prefix), at most 4 real chars kept. */
const MASK_CHAR = "(?:[*#•·●]|\u00e2\u0080\u00a2|\u00c2\u00b7|\u00e2\u0097\u008f)";
const MASK = new RegExp(
  `^(?:[A-Za-z0-9]{1,12}[_.:-]){0,3}[A-Za-z0-9]{0,4}(?:${MASK_CHAR}{3,}|[xX]{4,}|\\.\\.\\.|…|\u00e2\u0080\u00a6)(?:\\.\\.\\.)?[A-Za-z0-9]{0,4}$|^(?:${MASK_CHAR}|[xX]){3,}$`,
);
/** Not a value at all: empty, null-ish, booleans, numbers, durations, algorithm names, JS. */
const NON_VALUE =
  /^(?:|null|nil|none|undefined|true|false|yes|no|on|off|n\/a|-?\d+(?:\.\d+)?|\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h|d|w|y|mo|kb|mb|gb|k|b|%)|(?:HS|RS|ES|PS)(?:256|384|512)|EdDSA|none|AES-?\d+(?:-?(?:GCM|CBC|CTR))?|argon2(?:id|i|d)?|bcrypt|scrypt|pbkdf2\S*|sha-?\d+|md5|plain|basic|bearer|oauth2?|required|optional|string|number|boolean|str|int|bool|bytes|String|Optional\[.*|void|typeof|new|function|this|await|require|import|return|async|yield|!0|!1)$/i;
/** Public by design: publishable keys, public keys, recipients, ECDSA signatures (DER, base64). */
const PUBLIC_VALUE =
  /^(?:ME[QUY]CI[A-Za-z0-9+/]{60,}={0,2}$|pk_(?:live|test)_|pk\.eyJ|sb_publishable_|phc_|ssh-(?:ed25519|rsa|dss)\s|ecdsa-sha2-|sk-ssh-|age1[02-9ac-hj-np-z]{20,}|-----BEGIN (?:PUBLIC KEY|CERTIFICATE|SSH2 PUBLIC KEY|PGP PUBLIC KEY BLOCK)|SHA256:|MD5:)/;
/** A filesystem path (the value names where a secret is, not the secret). */
const PATH =
  /^(?:~|\.{1,2}|[A-Za-z]:)?[\\/](?:[\w.@+-]+[\\/])*[\w.@+-]*$|^(?:[\w.@+-]+\/)+[\w@+-]+(?:\.[\w-]+)*\.[A-Za-z0-9]{1,6}$/;
/**
 * A path segment no person or mkdtemp named: 16+ chars of upper and lower case and digits with
 * no separator, or a `+`/`=` (base64, as in an AWS secret key that starts with `/`).
 */
const RANDOM_SEGMENT = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z0-9]{16,}$|[+=]/;
/** A URL with no user-info (URL credentials have their own rule). */
const PLAIN_URL = /^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i;
/** SealedSecret ciphertext: base64 starting with its version bytes, hundreds of chars long. */
const SEALED = /^Ag[A-D][A-Za-z0-9+/]{200,}={0,2}$/;

/**
 * Stand-ins that only a document writes, kept in output but not in a child's environment (where
 * dropping one costs nothing): the word `password` as a URL's password, AWS's documented keys.
 */
export function isDocumentStandIn(value: string): boolean {
  return PASSWORD_WORD.test(value) || DOCUMENTED_EXAMPLE.test(value);
}

/** True when the value in a credential position must stay (issue 13's placeholder rule). */
export function isPlaceholder(value: string): boolean {
  return (
    NON_VALUE.test(value) ||
    REFERENCE.test(value) ||
    CODE_REFERENCE.test(value) ||
    PLACEHOLDER_WORD.test(value) ||
    PREFIXED_PLACEHOLDER.test(value) ||
    ELIDED.test(value) ||
    MASK.test(value) ||
    PUBLIC_VALUE.test(value) ||
    SEALED.test(value) ||
    isUpperCaseName(value)
  );
}

/** `PASSWORD`, `ACCESS_TOKEN`, `API_KEY`: a usage text's metavariable naming the credential. */
function isUpperCaseName(value: string): boolean {
  return /^[A-Z][A-Z_]{2,}$/.test(value) && /PASS|TOKEN|KEY|SECRET|CRED|AUTH|PWD/.test(value);
}

/** A path or a URL without credentials: where a secret lives, not the secret. */
export function isLocation(value: string): boolean {
  if (PLAIN_URL.test(value)) return true;
  if (!PATH.test(value) || !/[A-Za-z]/.test(value)) return false;
  return !value.split(/[\\/]/).some((segment) => RANDOM_SEGMENT.test(segment));
}

/** Long enough, mixed character classes and enough Shannon entropy to be a key, not a word. */
export function looksRandom(value: string, minLength = 12): boolean {
  if (value.length < minLength) return false;
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
