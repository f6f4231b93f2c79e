// Reads and writes files codewhale keeps for this user alone (a cache entry, a stored frame,
// OAuth tokens). Read: a regular file, never through a symlink or a FIFO, owned by this user,
// that no other user can write (with `private`, nor read), of at most `maxBytes`; anything
// else, or any error, reads as absent. Write: 0600, atomically. Imports only Node: the launch
// frame (dist/launch.cjs) uses it.
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";

export function readOwnFile(
  path: string,
  maxBytes: number,
  options: { private?: boolean } = {},
): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    const uid = process.getuid?.();
    if (!stats.isFile() || stats.size > maxBytes) return undefined;
    if (uid !== undefined && stats.uid !== uid) return undefined;
    if ((stats.mode & (options.private ? 0o077 : 0o022)) !== 0) return undefined;
    return readFileSync(fd, "utf8");
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `data` to `path` (0600) through a fresh temp file beside it and a rename, so a reader
 * sees the old file or the new one. `dirs` are made first (0700) where missing, in order, each
 * inside an existing one: nothing is made above them. False, and no temp file left, on any
 * failure: what these files hold can always be made again.
 */
export function writeOwnFile(path: string, data: string, dirs: readonly string[] = []): boolean {
  const temp = join(dirname(path), `.${randomBytes(6).toString("hex")}.tmp`);
  try {
    for (const dir of dirs) {
      try {
        mkdirSync(dir, { mode: 0o700 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
    writeFileSync(temp, data, { mode: 0o600, flag: "wx" });
    renameSync(temp, path);
    return true;
  } catch {
    rmSync(temp, { force: true });
    return false;
  }
}
