// Reads files codewhale keeps for this user alone (OAuth tokens): a regular file, never through
// a symlink or a FIFO, owned by this user, that no other user can write (with `private`, nor
// read), of at most `maxBytes`; anything else, or any error, reads as absent. Used by
// tools/mcp/oauth-store.ts.
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";

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
