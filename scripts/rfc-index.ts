// The RFC tree under docs/rfc: its closed lifecycle and class sets, the walker that enforces the
// folder structure and the parseable H1, the INDEX.md renderer and drift check, and the CLI
// plumbing shared by gen-rfc-index, verify-rfc-format and verify-rfc-classification.

import type { Dirent } from "node:fs";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Where the RFCs live, relative to the project root. */
export const RFC_DIR = "docs/rfc";
export const INDEX_PATH = `${RFC_DIR}/INDEX.md`;
export const README_PATH = `${RFC_DIR}/README.md`;

export const LIFECYCLES = ["proposed", "implemented", "rejected"] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

export const CLASSES = ["architecture", "feature", "process", "security"] as const;
export type RfcClass = (typeof CLASSES)[number];

/** Files allowed beside the lifecycle folders, and inside a lifecycle folder. */
const TOP_FILES = new Set(["README.md", "INDEX.md"]);
const LIFECYCLE_FILES = new Set(["README.md", "AGENTS.md"]);

const FILE_NAME = /^(\d{4})-(\d{2})-(\d{2})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const H1 = /^# RFC: (\S.*?)\s*$/;

export interface Violation {
  /** From the project root, with forward slashes. */
  path: string;
  /** 1-based; absent for a folder or a misplaced file. */
  line?: number;
  message: string;
}

export interface RfcFile {
  /** docs/rfc/<lifecycle>/<class>/<YYYY-MM-DD-slug>.md */
  path: string;
  lifecycle: Lifecycle;
  rfcClass: RfcClass;
  date: string;
  fileName: string;
  /** The H1 without `# RFC: `; null when the H1 is malformed (a walker violation). */
  title: string | null;
  lines: string[];
}

export interface RfcTree {
  rfcs: RfcFile[];
  /** Structure violations, plus malformed H1s (those also carry `heading: true`). */
  violations: (Violation & { heading?: true })[];
}

/** An RFC as the index shows it. */
export type IndexEntry = Pick<RfcFile, "path" | "lifecycle" | "rfcClass" | "date" | "fileName"> & {
  title: string;
};

export function formatViolation({ path, line, message }: Violation): string {
  return line === undefined ? `${path}: ${message}` : `${path}:${line}: ${message}`;
}

const list = (values: readonly string[]): string => values.join(", ");
const isLifecycle = (name: string): name is Lifecycle => LIFECYCLES.some((l) => l === name);
const isClass = (name: string): name is RfcClass => CLASSES.some((c) => c === name);

function entries(dir: string): Dirent[] {
  return readdirSync(dir, { withFileTypes: true }).sort((a, b) => compare(a.name, b.name));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Walks `<root>/docs/rfc`, checking the folder structure and each RFC's H1. */
export function walkRfcTree(root: string): RfcTree {
  const tree: RfcTree = { rfcs: [], violations: [] };
  const top = join(root, RFC_DIR);
  if (!isDirectory(top)) {
    tree.violations.push({ path: RFC_DIR, message: "missing; RFCs live in docs/rfc/" });
    return tree;
  }
  if (!existsSync(join(root, README_PATH))) {
    tree.violations.push({ path: README_PATH, message: "missing; it states the format contract" });
  }
  for (const entry of entries(top)) {
    const path = `${RFC_DIR}/${entry.name}`;
    if (entry.isDirectory() && isLifecycle(entry.name)) walkLifecycle(root, entry.name, tree);
    else if (entry.isDirectory()) {
      const message = `unknown lifecycle folder; use one of ${list(LIFECYCLES)}`;
      tree.violations.push({ path, message });
    } else if (!TOP_FILES.has(entry.name)) {
      const message =
        "unexpected file; only README.md and INDEX.md sit beside the lifecycle folders";
      tree.violations.push({ path, message });
    }
  }
  return tree;
}

function walkLifecycle(root: string, lifecycle: Lifecycle, tree: RfcTree): void {
  const dir = `${RFC_DIR}/${lifecycle}`;
  for (const entry of entries(join(root, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory() && isClass(entry.name)) walkClass(root, lifecycle, entry.name, tree);
    else if (entry.isDirectory()) {
      const message = `unknown class folder; use one of ${list(CLASSES)}`;
      tree.violations.push({ path, message });
    } else if (!LIFECYCLE_FILES.has(entry.name)) {
      const message = `RFCs live in a class folder, ${dir}/<class>/`;
      tree.violations.push({ path, message });
    }
  }
}

function walkClass(root: string, lifecycle: Lifecycle, rfcClass: RfcClass, tree: RfcTree): void {
  const dir = `${RFC_DIR}/${lifecycle}/${rfcClass}`;
  for (const entry of entries(join(root, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      tree.violations.push({ path, message: "unexpected folder; class folders hold only RFCs" });
      continue;
    }
    const date = parseFileDate(entry.name);
    if (typeof date !== "string") {
      tree.violations.push({ path, message: date.error });
      continue;
    }
    const lines = readFileSync(join(root, path), "utf8").split("\n");
    const title = parseTitle(lines[0] ?? "");
    if (title === null) {
      const message = 'the first line must be the H1 "# RFC: <title>"';
      tree.violations.push({ path, line: 1, message, heading: true });
    }
    tree.rfcs.push({ path, lifecycle, rfcClass, date, fileName: entry.name, title, lines });
  }
}

/** The date of a `YYYY-MM-DD-slug.md` file name, or why the name is wrong. */
export function parseFileDate(fileName: string): string | { error: string } {
  const match = FILE_NAME.exec(fileName);
  if (!match) return { error: "file name must be YYYY-MM-DD-slug.md, slug in lowercase-kebab" };
  const [, year, month, day] = match.map(Number);
  const date = new Date(Date.UTC(year!, month! - 1, day!));
  const iso = fileName.slice(0, 10);
  if (date.toISOString().slice(0, 10) !== iso) return { error: `${iso} is not a calendar date` };
  return iso;
}

/** The title of an `# RFC: <title>` line, or null when the line is not one. */
export function parseTitle(line: string): string | null {
  return H1.exec(line)?.[1] ?? null;
}

/** The RFCs with a parseable title, as the index lists them. */
export function indexEntries(tree: RfcTree): IndexEntry[] {
  return tree.rfcs.flatMap((rfc) => (rfc.title === null ? [] : [{ ...rfc, title: rfc.title }]));
}

const GROUP_TITLES: Record<Lifecycle, string> = {
  proposed: "Proposed",
  implemented: "Implemented",
  rejected: "Rejected",
};

/** The whole of INDEX.md: one table per lifecycle, rows by date then file name. */
export function renderIndex(rfcs: readonly IndexEntry[]): string {
  const lines = [
    "# RFC index",
    "",
    "Generated by `npm run docs:index` from the RFC files; do not edit it by hand.",
    "`npm run docs:check` fails when it differs from a fresh render.",
  ];
  for (const lifecycle of LIFECYCLES) {
    const group = rfcs.filter((rfc) => rfc.lifecycle === lifecycle).sort(byDateThenName);
    lines.push("", `## ${GROUP_TITLES[lifecycle]} (${group.length})`, "");
    if (group.length === 0) {
      lines.push("None.");
      continue;
    }
    lines.push("| Date | Class | RFC |", "| --- | --- | --- |");
    for (const rfc of group) lines.push(indexRow(rfc));
  }
  return `${lines.join("\n")}\n`;
}

function byDateThenName(a: IndexEntry, b: IndexEntry): number {
  return compare(a.date, b.date) || compare(a.fileName, b.fileName) || compare(a.path, b.path);
}

function indexRow(rfc: IndexEntry): string {
  const title = rfc.title.replace(/[\\|[\]]/g, (c) => `\\${c}`);
  const link = rfc.path.slice(RFC_DIR.length + 1);
  return `| ${rfc.date} | ${rfc.rfcClass} | [${title}](${link}) |`;
}

/** Compares INDEX.md with a fresh render; names the first line that differs. */
export function checkIndexCurrent(root: string, tree: RfcTree): Violation[] {
  const file = join(root, INDEX_PATH);
  const fix = "run `npm run docs:index`";
  if (!existsSync(file)) return [{ path: INDEX_PATH, message: `missing; ${fix}` }];
  const actual = readFileSync(file, "utf8");
  const expected = renderIndex(indexEntries(tree));
  if (actual === expected) return [];
  const have = actual.split("\n");
  const want = expected.split("\n");
  let line = 0;
  while (have[line] === want[line]) line += 1;
  return [{ path: INDEX_PATH, line: line + 1, message: `differs from a fresh render; ${fix}` }];
}

const RFC_LINK = new RegExp(`\\((?:\\./)?(?:${LIFECYCLES.join("|")})/[^)]*\\.md\\)`);
const ROW_START = /^\s*(?:\||[-*+]\s|\d+[.)]\s)/;
const DATE_CELL = /\|\s*\d{4}-\d{2}-\d{2}\s*\|/;

/** Table rows or list items in the curated README that list RFCs, which only INDEX.md may. */
export function findIndexRows(root: string): Violation[] {
  const file = join(root, README_PATH);
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8").split("\n");
  return lines.flatMap((text, i) =>
    ROW_START.test(text) && (RFC_LINK.test(text) || DATE_CELL.test(text))
      ? [{ path: README_PATH, line: i + 1, message: "lists an RFC; only INDEX.md lists RFCs" }]
      : [],
  );
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** What a script found: the violations, or the one line it prints when there are none. */
export interface ScriptOutcome {
  violations: Violation[];
  summary: string;
}

const DEFAULT_ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Parses `[--root DIR]`, runs the check, prints violations (sorted, one a line, then a count)
 * to stderr or the summary to stdout. Returns the exit code: 0 clean, 1 violations, 2 usage.
 */
export function runScript(
  name: string,
  argv: readonly string[],
  run: (root: string) => ScriptOutcome,
): number {
  const usage = `usage: ${name} [--root DIR]\n`;
  const parsed = parseRoot(argv);
  if ("help" in parsed) {
    process.stdout.write(usage);
    return 0;
  }
  if ("error" in parsed) {
    process.stderr.write(`${name}: ${parsed.error}\n${usage}`);
    return 2;
  }
  const { violations, summary } = run(parsed.root);
  if (violations.length === 0) {
    process.stdout.write(`${name}: ${summary}\n`);
    return 0;
  }
  const lines = sortViolations(violations).map(formatViolation);
  const count = `${violations.length} violation${violations.length === 1 ? "" : "s"}`;
  process.stderr.write(`${lines.join("\n")}\n${name}: ${count}\n`);
  return 1;
}

type ParsedArgs = { root: string } | { help: true } | { error: string };

function parseRoot(argv: readonly string[]): ParsedArgs {
  let root = DEFAULT_ROOT;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return { help: true };
    if (arg === "--root" || arg.startsWith("--root=")) {
      const value = arg === "--root" ? argv[++i] : arg.slice("--root=".length);
      if (!value) return { error: "--root needs a directory" };
      root = resolve(value);
      if (!isDirectory(root)) return { error: `--root: not a directory: ${value}` };
    } else return { error: `unknown argument "${arg}"` };
  }
  return { root };
}

/** By path, then line; folder-level violations first within a path. Stable otherwise. */
export function sortViolations(violations: readonly Violation[]): Violation[] {
  return [...violations].sort((a, b) => compare(a.path, b.path) || (a.line ?? 0) - (b.line ?? 0));
}
