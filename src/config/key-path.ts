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
