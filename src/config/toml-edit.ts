// The one TOML writer: sets an array value with the smallest possible change (replaced in
// place, comments kept; a missing one inserted before the first header, after its table's
// header, or in an appended table), appends a whole table, or removes one with its sub-tables.
// Callers parse the result again (parseConfigText) and check it before writing it
// (trust-file.ts, rule-file.ts, mcp-file.ts).
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parse } from "smol-toml";
import { ConfigError, errorMessage } from "../errors.ts";

/**
 * `text` with `key` in `table` (null: top level) set to the array of the already formatted
 * TOML `items`, one per line. Pure.
 */
export function setArray(
  text: string,
  table: string | null,
  key: string,
  items: readonly string[],
): string {
  const assignment =
    items.length === 0
      ? `${key} = []`
      : `${key} = [\n${items.map((item) => `  ${item},\n`).join("")}]`;
  const section = table === null ? { start: 0 } : findTable(text, table);
  if (section === undefined) {
    const separator = text === "" ? "" : text.endsWith("\n") ? "\n" : "\n\n";
    return `${text}${separator}[${table}]\n${assignment}\n`;
  }
  const layout = scanSection(text, section.start, key);
  if (layout.existing) {
    const { start, end } = layout.existing;
    return text.slice(0, start) + assignment + text.slice(end);
  }
  if (table !== null) {
    const at = section.start;
    const separator = at > 0 && text[at - 1] !== "\n" ? "\n" : "";
    return `${text.slice(0, at)}${separator}${assignment}\n${text.slice(at)}`;
  }
  if (layout.nextHeader === undefined) {
    const separator = text === "" || text.endsWith("\n") ? "" : "\n";
    return `${text}${separator}${assignment}\n`;
  }
  const at = layout.nextHeader;
  return `${text.slice(0, at)}${assignment}\n\n${text.slice(at)}`;
}

/**
 * `text` with a `[table]` holding `assignments` (already formatted `key = value` lines)
 * appended at its end, after one blank line. Pure.
 */
export function appendTable(text: string, table: string, assignments: readonly string[]): string {
  if (text.trim() === "") return `[${table}]\n${assignments.map((line) => `${line}\n`).join("")}`;
  const separator = text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  const body = assignments.map((line) => `${line}\n`).join("");
  return `${text}${separator}[${table}]\n${body}`;
}

/**
 * `text` without the `[table]` section and its `[table.sub]` sections: each from its header
 * to the next header, less the comment and blank lines directly above that header (they
 * belong to it). Every other comment is kept. Unchanged when there is none. Pure.
 */
export function removeTable(text: string, table: string): string {
  const lines = splitLines(text);
  const own = (line: string) => {
    const name = headerName(line);
    return name !== undefined && (name === table || name.startsWith(`${table}.`));
  };
  const drop = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    if (!own(lines[i] ?? "")) continue;
    let end = i + 1;
    while (end < lines.length && headerName(lines[end] ?? "") === undefined) end++;
    let keep = end;
    while (keep > i + 1 && (isComment(lines[keep - 1] ?? "") || isBlank(lines[keep - 1] ?? "")))
      keep--;
    for (let at = i; at < keep; at++) drop.add(at);
    i = end - 1;
  }
  if (drop.size === 0) return text;
  const kept = lines.filter((_, index) => !drop.has(index)).join("");
  return kept.replace(/\n{3,}/g, "\n\n").replace(/^\n+/, "");
}

/** Writes `text` to `file` whole or not at all (a temp file renamed over it), keeping its mode. */
export function writeConfigText(file: string, text: string, newFileMode = 0o644): void {
  mkdirSync(dirname(file), { recursive: true });
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : newFileMode;
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode });
  renameSync(temp, file);
}

/** `text` (the contents of `file`) parsed; a syntax error is a ConfigError naming the file. */
export function parseConfigText(file: string, text: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    const first = errorMessage(error).split("\n", 1)[0] ?? "";
    throw new ConfigError(`${file}: invalid TOML: ${first}`, file);
  }
}

/** The file's text, or "" when it does not exist. */
export function readConfigText(file: string): string {
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

interface Section {
  /** Offset of the first line after the table's header (0 for the top level). */
  start: number;
}

interface SectionLayout {
  /** Offsets of `key = […]`, from the key to the closing bracket. */
  existing?: { start: number; end: number };
  /** Offset of the next line starting a table (`[x]` or `[[x]]`). */
  nextHeader?: number;
}

/** The line after the `[table]` header, or undefined when the file has none. */
function findTable(text: string, table: string): Section | undefined {
  const header = new RegExp(`^\\[\\s*${table.replaceAll(".", "\\.")}\\s*\\][ \\t]*(?:#.*)?$`);
  for (let i = 0; i < text.length; ) {
    const lineEnd = lineEndOf(text, i);
    const line = text.slice(i, lineEnd).replace(/\r?\n$/, "");
    if (header.test(line.trim())) return { start: lineEnd };
    i = Math.max(skipValue(text, i + indentOf(line), true), lineEnd);
  }
  return undefined;
}

/** Finds `key` and the next header from `from`, skipping strings and comments. */
function scanSection(text: string, from: number, key: string): SectionLayout {
  const assignment = new RegExp(`^${key}\\s*=\\s*`);
  let i = from;
  while (i < text.length) {
    const lineEnd = lineEndOf(text, i);
    const line = text.slice(i, lineEnd);
    const indent = indentOf(line);
    if (line.slice(indent).startsWith("[")) return { nextHeader: i };
    const found = assignment.exec(line.slice(indent));
    if (found) {
      const valueStart = i + indent + found[0].length;
      return { existing: { start: i + indent, end: skipValue(text, valueStart) } };
    }
    i = Math.max(skipValue(text, i + indent, true), lineEnd);
  }
  return {};
}

/** The lines of `text`, each with its newline; a multi-line string or array is one line. */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  for (let i = 0; i < text.length; ) {
    const lineEnd = lineEndOf(text, i);
    const end = Math.max(skipValue(text, i + indentOf(text.slice(i, lineEnd)), true), lineEnd);
    lines.push(text.slice(i, end));
    i = end;
  }
  return lines;
}

/** The table a `[name]` / `[[name]]` header line names (spaces around dots removed). */
function headerName(line: string): string | undefined {
  const found = /^\s*\[\[?\s*([^\][#]+?)\s*\]\]?\s*(?:#.*)?\r?\n?$/.exec(line);
  return found?.[1]?.replace(/\s*\.\s*/g, ".");
}

function isComment(line: string): boolean {
  return /^\s*#/.test(line);
}

function isBlank(line: string): boolean {
  return line.trim() === "";
}

function lineEndOf(text: string, from: number): number {
  const newline = text.indexOf("\n", from);
  return newline === -1 ? text.length : newline + 1;
}

function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)?.[0].length ?? 0;
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
