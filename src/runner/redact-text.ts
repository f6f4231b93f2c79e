// Redacts secret-shaped strings in one whole text with the output policy's own rules (the
// Redactor's built-in rules, no secretlint, no environment values), so the result depends on
// the text alone. For derived views of a session (exports, `sessions show --view`), and, with
// the session's known credential values, for the terminal's prompt history.
import { fromByteString, toByteString } from "./byte-text.ts";
import type { KnownSecrets } from "./known-secrets.ts";
import { Redactor } from "./redactor.ts";

export function redactText(text: string, known: KnownSecrets | null = null): string {
  if (text.length === 0) return text;
  return fromByteString(new Redactor(null, undefined, known).redactOwn(toByteString(text)));
}
