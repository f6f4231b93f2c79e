// Edits `trusted_projects` in the user config file with the smallest possible change: the
// existing top-level array is replaced in place (comments elsewhere, and one after the array
// on its last line, are kept), or a new one is inserted before the first table header. Each
// record is one `{ path, fingerprint }` line. The result is parsed again and checked before it
// is written. Used by `codewhale trust`.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parse } from "smol-toml";
import { ConfigError, errorMessage } from "../errors.ts";
import type { TrustEntry } from "./schema.ts";

export type TrustRecord = string | TrustEntry;

/** The `trusted_projects` of the user file, or [] when the file or key is missing. */
export function readTrustedProjects(userFile: string): TrustRecord[] {
  if (!existsSync(userFile)) return [];
  const text = readFileSync(userFile, "utf8");
  let data: Record<string, unknown>;
  try {
    data = parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`${userFile}: invalid TOML: ${errorMessage(error)}`, userFile);
  }
  const list = data.trusted_projects;
  return Array.isArray(list) ? list.filter(isTrustRecord) : [];
}

function isTrustRecord(item: unknown): item is TrustRecord {
  if (typeof item === "string") return true;
  const entry = item as Partial<TrustEntry> | null;
  return typeof entry?.path === "string" && typeof entry.fingerprint === "string";
}

/** Writes `projects` as the user file's `trusted_projects`, creating the file if needed. */
export function writeTrustedProjects(userFile: string, projects: readonly TrustRecord[]): void {
  const before = existsSync(userFile) ? readFileSync(userFile, "utf8") : "";
  const after = replaceTrustedProjects(before, projects);
  const check = parse(after) as Record<string, unknown>;
  if (JSON.stringify(check.trusted_projects) !== JSON.stringify(projects)) {
    throw new Error(`editing trusted_projects in ${userFile} produced a different value`);
  }
  mkdirSync(dirname(userFile), { recursive: true });
  writeFileSync(userFile, after);
}

/** The text with its top-level `trusted_projects` set to `projects`. Pure. */
export function replaceTrustedProjects(text: string, projects: readonly TrustRecord[]): string {
  const assignment =
    projects.length === 0
      ? "trusted_projects = []"
      : `trusted_projects = [\n${projects.map((p) => `  ${formatRecord(p)},\n`).join("")}]`;
  const layout = scanTopLevel(text);
  if (layout.existing) {
    const { start, end } = layout.existing;
    return text.slice(0, start) + assignment + text.slice(end);
  }
  if (layout.firstHeader === undefined) {
    const separator = text === "" || text.endsWith("\n") ? "" : "\n";
    return `${text}${separator}${assignment}\n`;
  }
  const at = layout.firstHeader;
  return `${text.slice(0, at)}${assignment}\n\n${text.slice(at)}`;
}

/** One record as TOML: a bare path string, or an inline table. */
function formatRecord(record: TrustRecord): string {
  if (typeof record === "string") return JSON.stringify(record);
  return `{ path = ${JSON.stringify(record.path)}, fingerprint = ${JSON.stringify(record.fingerprint)} }`;
}

interface TopLevel {
  /** Offsets of `trusted_projects = […]`, from the key to the closing bracket. */
  existing?: { start: number; end: number };
  /** Offset of the first line starting a table (`[x]` or `[[x]]`). */
  firstHeader?: number;
}

/** Finds the top-level key and the first header, skipping strings and comments. */
function scanTopLevel(text: string): TopLevel {
  let i = 0;
  while (i < text.length) {
    const lineEnd = text.indexOf("\n", i) === -1 ? text.length : text.indexOf("\n", i) + 1;
    const line = text.slice(i, lineEnd);
    const indent = /^[ \t]*/.exec(line)?.[0].length ?? 0;
    if (line.slice(indent).startsWith("[")) return { firstHeader: i };
    const key = /^trusted_projects\s*=\s*/.exec(line.slice(indent));
    if (key) {
      const valueStart = i + indent + key[0].length;
      return { existing: { start: i + indent, end: skipValue(text, valueStart) } };
    }
    i = skipValue(text, i + indent, true);
    i = Math.max(i, lineEnd);
  }
  return {};
}

/**
 * The offset just after the value (or, with `toLineEnd`, the line) starting at `from`:
 * brackets nest, strings (basic, literal, multi-line) and comments are skipped.
 */
function skipValue(text: string, from: number, toLineEnd = false): number {
  let depth = 0;
  let i = from;
  while (i < text.length) {
    const char = text[i];
    if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
      const close = text.indexOf(text.slice(i, i + 3), i + 3);
      i = close === -1 ? text.length : close + 3;
    } else if (char === '"' || char === "'") {
      i = skipString(text, i, char);
    } else if (char === "#") {
      const newline = text.indexOf("\n", i);
      i = newline === -1 ? text.length : newline;
    } else if (char === "[" || char === "{") {
      depth++;
      i++;
    } else if (char === "]" || char === "}") {
      depth--;
      i++;
      if (depth === 0 && !toLineEnd) return i;
    } else if (char === "\n" && depth === 0) {
      return toLineEnd ? i + 1 : i;
    } else i++;
  }
  return i;
}

function skipString(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length && text[i] !== quote && text[i] !== "\n") {
    i += quote === '"' && text[i] === "\\" ? 2 : 1;
  }
  return i + 1;
}
