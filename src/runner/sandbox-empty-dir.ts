// The empty read-only directory a sandboxed command gets over a hidden directory or a missing
// protected one: one private empty directory of this process (0700, in the temp directory,
// removed at exit; named with the pid, so a later start sweeps it after a SIGKILL: spill.ts)
// bound read-only over each, which costs bwrap far less than a tmpfs mounted and remounted
// read-only per path. Checked once per command (emptyDirMounts, from sandbox-protect.ts).
import { mkdtempSync, readdirSync, rmdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isInside } from "./path-kind.ts";
import { onShutdown } from "./shutdown.ts";

let emptyDir: string | null = null;

/** The bwrap arguments that put an empty read-only directory at `path`. */
export type EmptyDirMount = (path: string) => string[];

/**
 * One command's empty read-only directories: a bind of the shared empty one, or a read-only
 * tmpfs where that one cannot be made, is not empty (another process of the user's can fill
 * it) or lies in one of `writable` (the command could fill it). Checked on the command's first
 * mount point, so its others (about twenty-five) cost no system call.
 */
export function emptyDirMounts(writable: readonly string[]): EmptyDirMount {
  let checked: string | null | undefined;
  return (path) => {
    if (checked === undefined) checked = usableEmptyDir(writable);
    return checked ? ["--ro-bind", checked, path] : ["--tmpfs", path, "--remount-ro", path];
  };
}

function usableEmptyDir(writable: readonly string[]): string | null {
  const empty = sharedEmptyDir();
  if (!empty || writable.some((root) => isInside(root, empty) || root === empty)) return null;
  return empty;
}

/** The shared empty directory, made again when it is gone; null when it is not empty. */
function sharedEmptyDir(): string | null {
  try {
    if (emptyDir) return readdirSync(emptyDir).length === 0 ? emptyDir : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return null;
  }
  try {
    emptyDir = mkdtempSync(join(tmpdir(), `codewhale-empty-${process.pid}-`));
    const made = emptyDir;
    onShutdown(() => {
      try {
        rmdirSync(made);
      } catch {
        // Gone already.
      }
    });
    return made;
  } catch {
    return null;
  }
}
