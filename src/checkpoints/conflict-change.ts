// What a refused rewind would overwrite, for a surface that shows it before asking (the
// terminal): a conflicting file's text now, read without following a symlink, and the text the
// rewind would write, read from the store. Binary or large files are named, not shown. Called
// by rewind.ts.
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync } from "node:fs";
import { join } from "node:path";
import type { ConflictChange } from "../errors.ts";
import { readBlob } from "./objects.ts";
import type { RestoreStep } from "./restore.ts";
import type { CheckpointStore } from "./store.ts";

/** Texts longer than this are not shown. */
const MAX_SHOWN = 256 * 1024;

export function conflictChange(
  store: CheckpointStore,
  steps: readonly RestoreStep[],
  path: string,
): ConflictChange {
  const step = steps.find((candidate) => candidate.path === path);
  const then = step?.hash ? readBlob(store.place.gitDir, step.hash) : null;
  const now = readNow(join(store.place.workTree, path));
  const shown = [now, then].every((bytes) => bytes === null || isText(bytes));
  if (!shown) return { path, now: null, restored: null, note: "binary or large: not shown" };
  return { path, now: now?.toString("utf8") ?? null, restored: then?.toString("utf8") ?? null };
}

function isText(bytes: Buffer): boolean {
  return bytes.length <= MAX_SHOWN && !bytes.subarray(0, 8000).includes(0);
}

/** The bytes of a file (a symlink: its target), null when absent; oversized: a marker. */
function readNow(path: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return readlinkSync(path, { encoding: "buffer" });
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return null;
    if (stat.size > MAX_SHOWN) return Buffer.alloc(MAX_SHOWN + 1);
    const bytes = Buffer.alloc(stat.size);
    const read = readSync(fd, bytes, 0, bytes.length, 0);
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
