// What a provider failure may say once it leaves the adapter: one line, no control characters,
// and no credentials (the provider's API key, verbatim or URL-encoded, credentials in a URL,
// and anything shaped like a key). A server that echoes the key back is not repeated.
import { MASK, maskSecretText } from "../config/index.ts";
import type { ProviderFailure } from "../providers/index.ts";

/** Keys shorter than this are placeholders (`no-key`), not secrets worth a scan. */
const MIN_SECRET_LENGTH = 8;
/** `scheme://user:password@` */
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi;
/** `?api_key=…`, `&token=…` and the like. */
const SECRET_PARAM =
  /([?&](?:api[_-]?key|apikey|key|token|access[_-]?token|secret|password|auth)=)[^&\s"')]+/gi;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the target.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

/** The failure with its message made safe to print, log and persist. */
export function safeFailure(failure: ProviderFailure, secrets: readonly string[]): ProviderFailure {
  return { ...failure, message: safeText(failure.message, secrets) };
}

export function safeText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), secret.trim()])) {
      if (form.length >= MIN_SECRET_LENGTH) out = out.split(form).join(MASK);
    }
  }
  out = out.replace(URL_USERINFO, `$1${MASK}@`).replace(SECRET_PARAM, `$1${MASK}`);
  return maskSecretText(out).replace(CONTROL, " ").replace(/ {2,}/g, " ").trim();
}
