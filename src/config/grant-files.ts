// The project files besides its config that a trust record covers: each can grant permissions
// or change what is sent once the project is trusted. A custom command with `allowed-tools`
// (`.codewhale/commands`, `.claude/commands`, one subdirectory deep), every custom agent
// (`.codewhale/agents`, `.claude/agents`) and every skill's SKILL.md (`.codewhale/skills`,
// `.claude/skills`, `.agents/skills`). load.ts hashes them into the trust fingerprint and names
// those that changed since the record; the loaders of each kind refuse a changed one.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { directoryEntries, parseFrontMatter } from "./definition-files.ts";

/** Larger files are hashed by their first bytes only (their loaders refuse them anyway). */
const MAX_HASHED_BYTES = 1024 * 1024;

/** Each such file, by its path relative to the project root (`/`-separated), as `sha256:<hex>`. */
export function projectGrantFiles(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const add = (relative: string, keep: (text: string) => boolean = () => true) => {
    const text = readText(join(root, relative));
    if (text !== undefined && keep(text)) files[relative] = digest(text);
  };
  for (const base of [".codewhale/commands", ".claude/commands"]) {
    for (const file of markdownFiles(root, base)) add(file, grantsTools);
  }
  for (const base of [".codewhale/agents", ".claude/agents"]) {
    for (const file of directoryEntries(join(root, base), isMarkdown)) add(`${base}/${file}`);
  }
  for (const base of [".codewhale/skills", ".claude/skills", ".agents/skills"]) {
    const dirs = directoryEntries(join(root, base), (e) => e.isDirectory() || e.isSymbolicLink());
    for (const dir of dirs) add(`${base}/${dir}/SKILL.md`);
  }
  return files;
}

/**
 * The grant files of a loaded project whose grants are refused (changed since it was trusted),
 * as absolute paths under the root the loaders read from.
 */
export function changedGrantPaths(loaded: {
  projectRoot?: string | undefined;
  trust: { changedFiles?: string[] };
}): ReadonlySet<string> {
  const root = loaded.projectRoot;
  const changed = loaded.trust.changedFiles ?? [];
  return new Set(root === undefined ? [] : changed.map((path) => join(root, path)));
}

/** The relative paths of `files` whose digest is not the one `recorded` holds. */
export function changedGrantFiles(
  files: Readonly<Record<string, string>>,
  recorded: Readonly<Record<string, string>>,
): string[] {
  return Object.keys(files).filter((path) => recorded[path] !== files[path]);
}

/** A command's `.md` files, and those one subdirectory down, relative to the root. */
function markdownFiles(root: string, base: string): string[] {
  const dir = join(root, base);
  const files = directoryEntries(dir, isMarkdown).map((file) => `${base}/${file}`);
  for (const sub of directoryEntries(dir, (entry) => entry.isDirectory())) {
    const inner = directoryEntries(join(dir, sub), isMarkdown);
    files.push(...inner.map((file) => `${base}/${sub}/${file}`));
  }
  return files;
}

function isMarkdown(entry: { name: string; isFile(): boolean; isSymbolicLink(): boolean }) {
  return entry.name.endsWith(".md") && (entry.isFile() || entry.isSymbolicLink());
}

function grantsTools(text: string): boolean {
  return (parseFrontMatter(text)?.fields.get("allowed-tools") ?? "").trim() !== "";
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path).subarray(0, MAX_HASHED_BYTES).toString("utf8");
  } catch {
    return undefined;
  }
}

function digest(text: string): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}
