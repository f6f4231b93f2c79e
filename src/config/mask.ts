// Recognises secret-shaped config values and hides them: keys named like credentials
// (api_key, token, secret, password, Authorization, x-api-key …), values shaped like provider
// keys (`sk-…`, `ghp_…`, `Bearer …`), and the credentials a URL can carry (`user:password@`,
// `?api_key=…`). Used by `config show`, `trust --show`, failure text and the fingerprint.
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
    .replace(SECRET_QUERY, `$1${MASK}`);
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
