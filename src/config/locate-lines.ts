// Finds the line of a key in a TOML text, for error messages. smol-toml reports positions only
// for syntax errors, so this scans table headers (`[a.b]`, `[[a.b]]`), dotted and plain keys;
// a key inside an inline table resolves to the line of the table's own key. `createLineLocator`
// scans a text once and answers each lookup from an index, so many problems stay linear.
import type { KeySegment } from "./key-path.ts";
import { formatKeyPath, parseTomlKey } from "./key-path.ts";

interface Definition {
  path: KeySegment[];
  line: number;
}

/** The 1-based line that best defines `path` in `text`, or undefined if none does. */
export function locateKeyLine(text: string, path: readonly KeySegment[]): number | undefined {
  return createLineLocator(text)(path);
}

/**
 * Line lookups in one text: it is scanned once, on the first lookup. The best definition of
 * `path` is the first that is `path` or lies under it, else the first that is the longest
 * prefix of `path` (a key inside an inline table resolves to the table's key).
 */
export function createLineLocator(
  text: string,
): (path: readonly KeySegment[]) => number | undefined {
  let index: { exact: Map<string, number>; within: Map<string, number> } | undefined;
  return (path) => {
    index ??= indexDefinitions(text);
    if (path.length === 0) return undefined;
    const full = index.within.get(formatKeyPath(path));
    if (full !== undefined) return full;
    for (let length = path.length - 1; length > 0; length--) {
      const line = index.exact.get(formatKeyPath(path.slice(0, length)));
      if (line !== undefined) return line;
    }
    return undefined;
  };
}

/** The first line defining each path exactly, and the first defining each path or below it. */
function indexDefinitions(text: string) {
  const exact = new Map<string, number>();
  const within = new Map<string, number>();
  for (const def of scanDefinitions(text)) {
    const key = formatKeyPath(def.path);
    if (!exact.has(key)) exact.set(key, def.line);
    for (let length = def.path.length; length > 0; length--) {
      const prefix = length === def.path.length ? key : formatKeyPath(def.path.slice(0, length));
      if (!within.has(prefix)) within.set(prefix, def.line);
    }
  }
  return { exact, within };
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
