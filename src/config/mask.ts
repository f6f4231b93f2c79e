// Recognises secret-shaped config values and hides them: keys named like credentials
// (api_key, token, secret, password, Authorization, x-api-key …), values shaped like provider
// keys (`sk-…`, `ghp_…`, `Bearer …`), and the credentials a URL can carry (`user:password@`,
// `?api_key=…`), and in command lines (`--token x`, `--password=x`, `DB_PASSWORD=x`). Used by
// `config show`, `trust --show`, failure text, `mcp list`/`get`, doctor and the fingerprint.
import { isTable } from "./merge.ts";

export const MASK = "***";

/** Key names whose value is a credential. `api_key_env` names a variable, so it is not. */
const SECRET_KEY =
  /(^|[_.-])(api[_-]?key|apikey|token|secret|client[_-]?secret|password|passwd|pass|authorization|auth|cookie|credentials?|private[_-]?key)$/i;

/** Credential shapes found inside any string value. */
const SECRET_VALUE =
  /\b(?:sk-[A-Za-z0-9_-]{6,}|sk_[A-Za-z0-9_]{6,}|gh[pousr]_[A-Za-z0-9]{10,}|github_pat_[A-Za-z0-9_]{10,}|xox[abprs]-[A-Za-z0-9-]{6,}|glpat-[A-Za-z0-9_-]{10,}|AKIA[0-9A-Z]{12,}|AIza[0-9A-Za-z_-]{20,})|(?<=\bBearer\s+)[^\s"']{6,}/g;

/** The user-info part of a URL (`https://user:password@host`): all of it may be a credential. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"']+@/gi;

/** A URL query parameter named like a credential (`?api_key=…`, `&access_token=…`). */
const SECRET_QUERY =
  /([?&](?:[a-z0-9_.-]*[_.-])?(?:api[_-]?key|apikey|key|token|secret|password|passwd|sig|signature|auth|code)=)[^\s&#"']+/gi;

/** The words a command-line flag or an env-like name ends with when its value is a credential. */
const SECRET_WORD =
  "(?:password|passwd|passphrase|pass|pwd|token|secret|api[_-]?key|apikey|access[_-]?key|private[_-]?key|key|auth|credentials?|pat)";

/** A credential flag and its value in text: `--token x`, `--password=x`, `-api-key x`. */
const SECRET_FLAG = new RegExp(
  `((?:^|[\\s"'=])--?(?:[a-z0-9]+[_.-])*${SECRET_WORD}(?:=|[ \t]+))(?!-)[^\\s"']+`,
  "gi",
);

/** An env-like assignment of a credential: `DB_PASSWORD=x`, `GITHUB_PAT=x`, `api_key=x`. */
const SECRET_ASSIGNMENT = new RegExp(
  `((?:^|[\\s"';&?])(?:[A-Za-z0-9]+[_-])*${SECRET_WORD}=)[^\\s"'&;]+`,
  "gi",
);

/** A whole argument that is a credential flag expecting its value in the next one. */
const SECRET_FLAG_ALONE = new RegExp(`^--?(?:[a-z0-9]+[_.-])*${SECRET_WORD}$`, "i");

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

export function containsSecret(text: string): boolean {
  return maskSecretText(text) !== text;
}

/** Replaces every credential-shaped part of `text` with the mask. */
export function maskSecretText(text: string): string {
  return text
    .replace(SECRET_VALUE, MASK)
    .replace(URL_USERINFO, `$1${MASK}@`)
    .replace(SECRET_QUERY, `$1${MASK}`)
    .replace(SECRET_FLAG, `$1${MASK}`)
    .replace(SECRET_ASSIGNMENT, `$1${MASK}`);
}

/**
 * An argument vector as shown: the argument after a credential flag (`--password`, `--token`,
 * `--api-key`) masked whole, every argument's credential-shaped parts masked (`--token=x`,
 * `KEY=value`, a URL's password).
 */
export function maskArgv(args: readonly string[]): string[] {
  return args.map((arg, at) =>
    at > 0 && SECRET_FLAG_ALONE.test(args[at - 1]!) && !arg.startsWith("-")
      ? MASK
      : maskSecretText(arg),
  );
}

/**
 * The credentials an argument vector or a URL holds, whole: each value maskArgv or
 * maskSecretText would hide. For masking them by value in text they may reappear in (a
 * server's stderr, an error message).
 */
export function secretsIn(texts: readonly string[]): string[] {
  const found = new Set<string>();
  texts.forEach((text, at) => {
    if (at > 0 && SECRET_FLAG_ALONE.test(texts[at - 1]!) && !text.startsWith("-")) found.add(text);
    for (const pattern of [SECRET_FLAG, SECRET_ASSIGNMENT, SECRET_QUERY]) {
      for (const match of text.matchAll(pattern)) found.add(match[0].slice(match[1]!.length));
    }
    for (const match of text.matchAll(SECRET_VALUE)) found.add(match[0]);
    const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^\s/?#@"']+)@/i.exec(text)?.[1];
    if (userinfo) for (const part of userinfo.split(":")) found.add(decodeURIComponentSafe(part));
  });
  return [...found].filter((value) => value.length >= 4 && value !== MASK);
}

/** `text` with each of `values` (longest first) and every credential shape masked. */
export function maskValues(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of [...values].sort((a, b) => b.length - a.length)) {
    if (value.length >= 4) out = out.replaceAll(value, MASK);
  }
  return maskSecretText(out);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export type SecretPolicy = "mask" | "drop";

/**
 * Returns a deep copy of `value` with secrets hidden. "mask" replaces secret-named values and
 * secret-shaped text with `***` (for display); "drop" removes secret-named keys entirely and
 * masks secret-shaped text (for hashing, so a changed key never changes the result).
 */
export function maskSecrets<T>(value: T, policy: SecretPolicy = "mask"): T {
  return hide(value, policy) as T;
}

function hide(value: unknown, policy: SecretPolicy): unknown {
  if (typeof value === "string") return maskSecretText(value);
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    return maskArgv(value);
  }
  if (Array.isArray(value)) return value.map((item) => hide(item, policy));
  if (!isTable(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (!isSecretKey(key)) out[key] = hide(child, policy);
    else if (policy === "mask") out[key] = maskWhole(child);
  }
  return out;
}

/** Masks every string under a secret-named key; numbers and booleans stay readable. */
function maskWhole(value: unknown): unknown {
  if (typeof value === "string") return MASK;
  if (Array.isArray(value)) return value.map(maskWhole);
  if (isTable(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskWhole(v)]));
  }
  return value;
}
