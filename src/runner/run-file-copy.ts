// A copy, in memory, of a run-on-host file or directory below the workspace's top
// (`sub/.envrc`, `packages/x/.npmrc`, `sub/.vscode/`) as it was before a sandboxed command, and
// putting it back: sandbox-deep-run-files.ts keeps one per such entry and restores it when a
// command changed the entry. Links are copied as links and never followed; a copy past its
// limits is not kept (the entry is then only renamed aside).
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

/** One entry as it was: a file's bytes and mode, a link's target, a directory's entries. */
export type EntryCopy =
  | { kind: "file"; mode: number; data: Buffer }
  | { kind: "link"; target: string }
  | { kind: "dir"; mode: number; entries: Map<string, EntryCopy> };

/** What one copy may hold: these are small config files, a larger tree is not copied. */
const MAX_BYTES = 256 * 1024;
const MAX_ENTRIES = 256;

/** The copy of what is at `path` now (lstat: a link is copied as a link), or null past the limits. */
export function copyEntry(path: string): EntryCopy | null {
  const budget = { bytes: MAX_BYTES, entries: MAX_ENTRIES };
  try {
    return copyOf(path, budget);
  } catch {
    return null;
  }
}

function copyOf(path: string, budget: { bytes: number; entries: number }): EntryCopy | null {
  if (--budget.entries < 0) return null;
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return { kind: "link", target: readlinkSync(path) };
  if (stat.isFile()) {
    budget.bytes -= stat.size;
    if (budget.bytes < 0) return null;
    return { kind: "file", mode: stat.mode & 0o7777, data: readFileSync(path) };
  }
  if (!stat.isDirectory()) return null;
  const entries = new Map<string, EntryCopy>();
  for (const name of readdirSync(path)) {
    const copy = copyOf(join(path, name), budget);
    if (!copy) return null;
    entries.set(name, copy);
  }
  return { kind: "dir", mode: stat.mode & 0o7777, entries };
}

/**
 * Makes `copy` at `path`, where nothing is (each file, folder and link created exclusively:
 * nothing in the way is followed or overwritten). Throws when it cannot.
 */
export function restoreEntry(path: string, copy: EntryCopy): void {
  if (copy.kind === "link") symlinkSync(copy.target, path);
  else if (copy.kind === "file") writeFileSync(path, copy.data, { flag: "wx", mode: copy.mode });
  else {
    mkdirSync(path, { mode: copy.mode });
    for (const [name, entry] of copy.entries) restoreEntry(join(path, name), entry);
  }
}
