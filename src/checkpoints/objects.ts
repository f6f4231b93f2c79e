// Blobs of a checkpoint store read (and the modes blob written) by codewhale itself, in git's
// loose-object format (zlib of `blob <size>\0<bytes>`, named by its SHA-1): a restore reads
// each blob checked against its id, without a git process per file. Called by store.ts and
// restore.ts.
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
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

/** The git blob id of `bytes`. */
function blobId(bytes: Buffer): string {
  const hash = createHash("sha1");
  hash.update(`blob ${bytes.length}\0`);
  hash.update(bytes);
  return hash.digest("hex");
}

/** Stores `bytes` as a blob of the repository at `gitDir`; returns its id. */
export function writeBlob(gitDir: string, bytes: Buffer): string {
  const id = blobId(bytes);
  const dir = join(gitDir, "objects", id.slice(0, 2));
  const path = join(dir, id.slice(2));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const header = Buffer.from(`blob ${bytes.length}\0`);
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
  if (!/^[0-9a-f]{40}$/.test(id)) throw new CheckpointError(`not a blob id: ${id}`);
  let raw: Buffer;
  try {
    raw = inflateSync(readFileSync(join(gitDir, "objects", id.slice(0, 2), id.slice(2))));
  } catch (error) {
    throw new CheckpointError(`checkpoint store lacks blob ${id}: ${(error as Error).message}`);
  }
  const nul = raw.indexOf(0);
  const bytes = raw.subarray(nul + 1);
  if (raw.subarray(0, nul).toString() !== `blob ${bytes.length}` || blobId(bytes) !== id) {
    throw new CheckpointError(`checkpoint store blob ${id} is damaged`);
  }
  return bytes;
}
