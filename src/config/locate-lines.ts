// Finds the line of a key in a TOML text, for error messages. smol-toml reports positions only
// for syntax errors, so this scans table headers (`[a.b]`, `[[a.b]]`), dotted and plain keys;
// a key inside an inline table resolves to the line of the table's own key.
import type { KeySegment } from "./key-path.ts";
import { parseTomlKey } from "./key-path.ts";

interface Definition {
  path: KeySegment[];
  line: number;
}

/** The 1-based line that best defines `path` in `text`, or undefined if none does. */
export function locateKeyLine(text: string, path: readonly KeySegment[]): number | undefined {
  let best: { score: number; line: number } | undefined;
  for (const def of scanDefinitions(text)) {
    const score = overlap(def.path, path);
    if (score > 0 && (best === undefined || score > best.score)) best = { score, line: def.line };
  }
  return best?.line;
}

/** How much of `target` `defined` accounts for: full overlap when one is a prefix of the other. */
function overlap(defined: readonly KeySegment[], target: readonly KeySegment[]): number {
  const length = Math.min(defined.length, target.length);
  for (let i = 0; i < length; i++) if (defined[i] !== target[i]) return 0;
  return length;
}

/** Every table header and key assignment in `text`, with the full path each one defines. */
export function scanDefinitions(text: string): Definition[] {
  const defs: Definition[] = [];
  const arrayCounts = new Map<string, number>();
  let table: KeySegment[] = [];
  let openString: string | undefined;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const wasOpen = openString;
    openString = trackMultilineString(raw, openString);
    if (wasOpen !== undefined) return;
    const header = /^\s*(\[\[?)(.*?)\]\]?\s*(#.*)?$/.exec(raw);
    if (header) {
      const key = parseTomlKey(header[2] ?? "");
      if (!key) return;
      table = resolveHeader(key.segments, header[1] === "[[", arrayCounts);
      defs.push({ path: table, line });
      return;
    }
    const key = parseTomlKey(raw);
    if (key?.rest.startsWith("=")) defs.push({ path: [...table, ...key.segments], line });
  });
  return defs;
}

/** Inserts array-of-tables indices: after `[[hooks.Stop]]` twice, `hooks.Stop` is `[1]`. */
function resolveHeader(
  segments: string[],
  isArray: boolean,
  arrayCounts: Map<string, number>,
): KeySegment[] {
  const path: KeySegment[] = [];
  segments.forEach((segment, i) => {
    path.push(segment);
    const id = JSON.stringify(path);
    const last = i === segments.length - 1;
    if (last && isArray) {
      const next = (arrayCounts.get(id) ?? 0) + 1;
      arrayCounts.set(id, next);
      path.push(next - 1);
    } else if (arrayCounts.has(id)) path.push((arrayCounts.get(id) ?? 1) - 1);
  });
  return path;
}

/** Returns the multi-line string delimiter still open after `line`, if any. */
function trackMultilineString(line: string, open: string | undefined): string | undefined {
  let state = open;
  for (const match of line.matchAll(/"""|'''/g)) {
    if (state === undefined) state = match[0];
    else if (state === match[0]) state = undefined;
  }
  return state;
}
