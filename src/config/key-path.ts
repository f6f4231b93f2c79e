// Dotted key paths as users read them: `providers.ollama.base_url`, `models."openai/gpt-4.1"`,
// `hooks.PreToolUse[0].command`. Shared by the sources map, error messages and the line locator,
// which also uses `parseTomlKey` to read the keys of a TOML header or assignment.

export type KeySegment = string | number;

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** Formats a path the way TOML would spell it; array indices become `[n]`. */
export function formatKeyPath(path: readonly KeySegment[]): string {
  let out = "";
  for (const segment of path) out = appendKeySegment(out, segment);
  return out;
}

/** `formatKeyPath([...path, segment])` given `formatKeyPath(path)`, without re-formatting it. */
export function appendKeySegment(formatted: string, segment: KeySegment): string {
  if (typeof segment === "number") return `${formatted}[${segment}]`;
  const part = BARE_KEY.test(segment) ? segment : JSON.stringify(segment);
  return formatted === "" ? part : `${formatted}.${part}`;
}

/**
 * The table keys of a path `formatKeyPath` wrote (`models."openai/gpt-4.1".input_price`), or
 * undefined when `key` is not one (an array index `[n]` included: sources name whole arrays).
 */
export function parseKeyPath(key: string): string[] | undefined {
  const segments: string[] = [];
  let at = 0;
  while (at < key.length) {
    if (segments.length > 0) {
      if (key[at] !== ".") return undefined;
      at++;
    }
    if (key[at] === '"') {
      const end = quotedEnd(key, at);
      if (end < 0) return undefined;
      try {
        segments.push(JSON.parse(key.slice(at, end + 1)) as string);
      } catch {
        return undefined;
      }
      at = end + 1;
    } else {
      let end = at;
      while (end < key.length && key[end] !== "." && key[end] !== '"' && key[end] !== "[") end++;
      const part = key.slice(at, end);
      if (!BARE_KEY.test(part)) return undefined;
      segments.push(part);
      at = end;
    }
  }
  return segments.length > 0 ? segments : undefined;
}

/** The index of the quote closing the JSON string that opens at `start`, or -1. */
function quotedEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/**
 * Reads a TOML key (`a`, `a.b`, `"x.y".z`, `'lit'`) from the start of `text`. Returns the
 * segments and the rest of the text, or undefined when `text` does not start with a key.
 */
export function parseTomlKey(text: string): { segments: string[]; rest: string } | undefined {
  const segments: string[] = [];
  let rest = text.trimStart();
  for (;;) {
    const match = /^(?:([A-Za-z0-9_-]+)|"((?:[^"\\]|\\.)*)"|'([^']*)')\s*/.exec(rest);
    if (!match) return undefined;
    segments.push(match[1] ?? unquote(match[2]) ?? match[3] ?? "");
    rest = rest.slice(match[0].length);
    if (!rest.startsWith(".")) return { segments, rest };
    rest = rest.slice(1).trimStart();
  }
}

function unquote(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return body;
  }
}
