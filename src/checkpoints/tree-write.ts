// A capture's changes written into the store by codewhale itself, without a git process: each
// changed file read (a symlink's target read, never followed; a file opened without following
// a symlink or blocking on a FIFO) and stored as a blob, and the trees on the way to it
// rewritten from the last state's, byte for byte as `git write-tree` writes them. Called by
// store.ts.
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync } from "node:fs";
import { join } from "node:path";
import { type TreeEntry, type TreeReader, writeBlob, writeObject } from "./objects.ts";

const DIRECTORY = 0o40000;
const SYMLINK = 0o120000;

/** A stored file's tree entry; `binary` when its first 8,000 bytes hold a NUL (git's test). */
interface StoredFile extends TreeEntry {
  binary?: true;
}

/**
 * Stores the file at `path` (workspace-relative) as a blob; returns its tree entry (mode as git
 * records it: 100755 when the owner may run it, else 100644; 120000 for a symlink), or null
 * when it is no longer a file or symlink of at most `maxBytes`.
 */
export function storeFile(
  gitDir: string,
  workTree: string,
  path: string,
  maxBytes: number,
): StoredFile | null {
  const full = join(workTree, path);
  let fd: number;
  try {
    fd = openSync(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOOP") return null;
    const target = readlinkSync(full, { encoding: "buffer" });
    return { mode: SYMLINK, hash: writeBlob(gitDir, target) };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > maxBytes) return null;
    const bytes = readAll(fd, stat.size);
    const mode = stat.mode & 0o100 ? 0o100755 : 0o100644;
    const binary = bytes.subarray(0, 8000).includes(0);
    return { mode, hash: writeBlob(gitDir, bytes), ...(binary ? { binary } : {}) };
  } finally {
    closeSync(fd);
  }
}

/** The whole file behind `fd` (more than `size` bytes when it grew meanwhile). */
function readAll(fd: number, size: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.alloc(Math.max(size - total, 65536));
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) break;
    chunks.push(chunk.subarray(0, read));
    total += read;
  }
  return Buffer.concat(chunks, total);
}

/** A change to a tree: the new entry of a path, or null to remove it. */
type Changes = ReadonlyMap<string, TreeEntry | null>;

/** Tree `base` with `changes` applied, its new trees written; returns the new root's id. */
export function writeTreeWith(
  gitDir: string,
  reader: TreeReader,
  base: string,
  changes: Changes,
): string {
  const split = [...changes].map(([path, entry]) => ({ parts: path.split("/"), entry }));
  return writeLevel(gitDir, reader, base, split) ?? writeTree(gitDir, reader, new Map());
}

interface Change {
  parts: string[];
  entry: TreeEntry | null;
}

/**
 * One folder's new tree, or null when it ends empty (git keeps no empty tree). Removals
 * first, then the folders below, then the files: a file that became a folder, and a folder
 * that became a file, both end as the workspace has them.
 */
function writeLevel(
  gitDir: string,
  reader: TreeReader,
  tree: string | null,
  changes: Change[],
): string | null {
  const entries = new Map(tree === null ? [] : reader.entries(tree));
  const below = new Map<string, Change[]>();
  for (const { parts, entry } of changes) {
    const [name = "", ...rest] = parts;
    if (rest.length > 0) below.set(name, [...(below.get(name) ?? []), { parts: rest, entry }]);
    else if (entry === null) entries.delete(name);
  }
  for (const [name, inner] of below) {
    const current = entries.get(name);
    const id = writeLevel(gitDir, reader, current?.mode === DIRECTORY ? current.hash : null, inner);
    if (id === null) {
      if (current?.mode === DIRECTORY) entries.delete(name);
    } else entries.set(name, { mode: DIRECTORY, hash: id });
  }
  for (const { parts, entry } of changes) {
    if (parts.length === 1 && entry !== null) entries.set(parts[0] ?? "", entry);
  }
  return entries.size === 0 ? null : writeTree(gitDir, reader, entries);
}

/** Writes a tree object of `entries`, sorted as git sorts them (a folder as `name/`). */
function writeTree(gitDir: string, reader: TreeReader, entries: Map<string, TreeEntry>): string {
  const keyed = [...entries].map(([name, entry]) => ({
    key: Buffer.from(entry.mode === DIRECTORY ? `${name}/` : name),
    name,
    entry,
  }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  const parts = keyed.flatMap(({ name, entry }) => [
    Buffer.from(`${entry.mode.toString(8)} ${name}\0`),
    Buffer.from(entry.hash, "hex"),
  ]);
  const id = writeObject(gitDir, "tree", Buffer.concat(parts));
  reader.remember(id, entries);
  return id;
}
