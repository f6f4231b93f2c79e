// Known secret values: the values of environment variables whose names say they hold a
// credential (and of the configured providers' key variables), redacted wherever they appear
// verbatim in tool output, whatever their shape. Built once per session (session-tools.ts) and
// carried on the OutputPolicy; the values never appear in a log, JSON or inspect output.
import { inspect } from "node:util";
import { toByteString } from "./byte-text.ts";
import { keyClass } from "./redact-rules.ts";
import { isLocation, isPlaceholder } from "./secret-values.ts";

/**
 * Shorter values are not redacted by value: `1`, `true`, `dev` or a 4-digit port would replace
 * ordinary text everywhere. Six chars keeps short passwords (`hunter`) in and those out.
 */
export const MIN_KNOWN_SECRET_LENGTH = 6;

/** The set of values, as UTF-8 byte strings, longest first (so a value inside another loses). */
export class KnownSecrets {
  readonly #values: readonly string[];

  constructor(values: Iterable<string>) {
    const unique = new Set<string>();
    for (const value of values) {
      for (const line of value.split(/\r?\n/)) {
        const trimmed = line.trim();
        if (trimmed.length >= MIN_KNOWN_SECRET_LENGTH) unique.add(toByteString(trimmed));
      }
    }
    this.#values = [...unique].sort((a, b) => b.length - a.length);
  }

  get size(): number {
    return this.#values.length;
  }

  /** Each occurrence of a known value in `text` as [start, end), in text order, no overlaps. */
  find(text: string): Array<[number, number]> {
    const spans: Array<[number, number]> = [];
    for (const value of this.#values) {
      for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + value.length)) {
        spans.push([at, at + value.length]);
      }
    }
    if (spans.length < 2) return spans;
    spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    const kept: Array<[number, number]> = [];
    for (const span of spans) if (kept.length === 0 || span[0] >= kept.at(-1)![1]) kept.push(span);
    return kept;
  }

  /** The longest value's length: a cut of a long line must look back at least this far. */
  get longest(): number {
    return this.#values[0]?.length ?? 0;
  }

  toJSON(): string {
    return `[${this.size} known secrets]`;
  }

  [inspect.custom](): string {
    return `KnownSecrets(${this.size})`;
  }
}

/**
 * The credential values of `env`: each variable whose name says it holds a credential (the
 * same key rule as `API_TOKEN=…` in output) or is listed in `extraNames` (providers'
 * `api_key_env`), when its value is not a placeholder, a path or shorter than the minimum.
 */
export function knownSecretsFrom(
  env: Readonly<Record<string, string | undefined>>,
  extraNames: readonly string[] = [],
  extraValues: readonly string[] = [],
): KnownSecrets {
  const extra = new Set(extraNames);
  const values: string[] = [...extraValues];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_KNOWN_SECRET_LENGTH) continue;
    if (!extra.has(name) && keyClass(name) === null) continue;
    if (isPlaceholder(value) || isLocation(value)) continue;
    values.push(value);
  }
  return new KnownSecrets(values);
}
