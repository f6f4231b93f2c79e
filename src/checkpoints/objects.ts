// Blobs of a checkpoint store read (and the modes blob written) by codewhale itself, in git's
// loose-object format (zlib of `blob <size>\0<bytes>`, named by its SHA-1): a restore reads
// each blob checked against its id, without a git process per file. Called by store.ts and
// restore.ts.
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { deflateSync, inflateSync } from "node:zlib";
import { CheckpointError } from "../errors.ts";

/** The git id of an object of `type` holding `bytes`. */
function objectId(type: ObjectType, bytes: Buffer): string {
  const hash = createHash("sha1");
  hash.update(`${type} ${bytes.length}\0`);
  hash.update(bytes);
  return hash.digest("hex");
}

type ObjectType = "blob" | "tree";

/** Stores `bytes` as a blob of the repository at `gitDir`; returns its id. */
export function writeBlob(gitDir: string, bytes: Buffer): string {
  return writeObject(gitDir, "blob", bytes);
}

/** Object folders known to exist (made, or found), so each is made once per process. */
const made = new Set<string>();

/** Stores an object (once: one already there is kept) as a loose object; returns its id. */
export function writeObject(gitDir: string, type: ObjectType, bytes: Buffer): string {
  const id = objectId(type, bytes);
  const dir = join(gitDir, "objects", id.slice(0, 2));
  const path = join(dir, id.slice(2));
  if (existsSync(path)) return id;
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    made.add(dir);
  }
  const header = Buffer.from(`${type} ${bytes.length}\0`);
  const packed = deflateSync(Buffer.concat([header, bytes]), { level: 1 });
  const temp = join(dir, `.tmp-${randomBytes(6).toString("hex")}`);
  const fd = openSync(temp, "wx", 0o400);
  try {
    writeSync(fd, packed);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temp);
  }
  return id;
}

/** The bytes of blob `id`, checked against its id. */
export function readBlob(gitDir: string, id: string): Buffer {
  return readObject(gitDir, id, "blob");
}

/** The bytes of loose object `id` of type `type`, checked against its id. */
function readObject(gitDir: string, id: string, type: ObjectType): Buffer {
  if (!/^[0-9a-f]{40}$/.test(id)) throw new CheckpointError(`not a ${type} id: ${id}`);
  let raw: Buffer;
  try {
    raw = inflateSync(readFileSync(join(gitDir, "objects", id.slice(0, 2), id.slice(2))));
  } catch (error) {
    throw new CheckpointError(`checkpoint store lacks ${type} ${id}: ${(error as Error).message}`);
  }
  const nul = raw.indexOf(0);
  const bytes = raw.subarray(nul + 1);
  const header = raw.subarray(0, nul).toString();
  const hash = createHash("sha1").update(raw).digest("hex");
  if (header !== `${type} ${bytes.length}` || hash !== id) {
    throw new CheckpointError(`checkpoint store ${type} ${id} is damaged`);
  }
  return bytes;
}

/** The empty tree's id (git's well-known constant; never stored as an object). */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** One entry of a tree: its mode and object id. */
export interface TreeEntry {
  mode: number;
  hash: string;
}

/**
 * Reads the trees of the store itself (git writes them loose; the store is never packed),
 * each tree once: the entry of a path in a tree, or null when it has none.
 */
export class TreeReader {
  private readonly trees = new Map<string, Map<string, TreeEntry>>();

  constructor(private readonly gitDir: string) {}

  /** The entry at `path` (slash-separated) in tree `tree`. */
  entry(tree: string, path: string): TreeEntry | null {
    let entry: TreeEntry | null = { mode: 0o40000, hash: tree };
    for (const name of path.split("/")) {
      if (entry === null || entry.mode !== 0o40000) return null;
      entry = this.read(entry.hash).get(name) ?? null;
    }
    return entry;
  }

  /** The entries of `tree`, by name (not to be changed: they are cached). */
  entries(tree: string): ReadonlyMap<string, TreeEntry> {
    return this.read(tree);
  }

  /** Stores the entries of tree `tree`, so that it is not read back. */
  remember(tree: string, entries: Map<string, TreeEntry>): void {
    this.trees.set(tree, entries);
  }

  private read(tree: string): Map<string, TreeEntry> {
    let entries = this.trees.get(tree);
    if (entries) return entries;
    entries = new Map();
    const bytes = tree === EMPTY_TREE ? Buffer.alloc(0) : readObject(this.gitDir, tree, "tree");
    let at = 0;
    while (at < bytes.length) {
      const space = bytes.indexOf(0x20, at);
      const nul = bytes.indexOf(0, space);
      const mode = Number.parseInt(bytes.subarray(at, space).toString(), 8);
      const name = bytes.subarray(space + 1, nul).toString("utf8");
      entries.set(name, { mode, hash: bytes.subarray(nul + 1, nul + 21).toString("hex") });
      at = nul + 21;
    }
    this.trees.set(tree, entries);
    return entries;
  }
}
