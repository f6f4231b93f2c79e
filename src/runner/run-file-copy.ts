// A copy, in memory, of a run-on-host file or directory below the workspace's top
// (`sub/.envrc`, `packages/x/.npmrc`, `sub/.vscode/`) as it was before a sandboxed command, and
// putting it back: sandbox-deep-run-files.ts keeps one per such entry and restores it when a
// command changed the entry. Links are copied as links and never followed; a copy past its
// limits is not kept (the entry is then only renamed aside). A file is read only through a
// descriptor opened without following a link, and only when that descriptor is the file at the
// path (no folder above it swapped for a link meanwhile: a background command racing the copy
// could otherwise have codewhale read a host file, ~/.npmrc say, and later write it back here).
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";

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
  if (stat.isFile()) return fileCopy(path, budget);
  if (!stat.isDirectory()) return null;
  const entries = new Map<string, EntryCopy>();
  for (const name of readdirSync(path)) {
    const copy = copyOf(join(path, name), budget);
    if (!copy) return null;
    entries.set(name, copy);
  }
  return { kind: "dir", mode: stat.mode & 0o7777, entries };
}

/** A regular file's bytes, read through a descriptor that is the file at `path` itself. */
function fileCopy(path: string, budget: { bytes: number }): EntryCopy | null {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    budget.bytes -= stat.size;
    if (!stat.isFile() || budget.bytes < 0 || !isAt(fd, path)) return null;
    return { kind: "file", mode: stat.mode & 0o7777, data: readFileSync(fd) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether the open file `fd` is at `path`: Linux names an open file's path in /proc; elsewhere
 * the folder above it must resolve to itself (no link in it) once the file is open.
 */
function isAt(fd: number, path: string): boolean {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`) === path;
  } catch {
    try {
      return realpathSync(dirname(path)) === dirname(path);
    } catch {
      return false;
    }
  }
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
