// Opens a file the path check (paths.ts) placed inside a root, without following any symlink on
// the way, so a link swapped in between the check and the open cannot send the open elsewhere.
// Node has no openat: on Linux each component is opened through the directory already open
// (`/proc/self/fd/N/name`, resolved by the kernel from that descriptor) with O_NOFOLLOW, and
// O_DIRECTORY for directories; elsewhere each prefix is opened the same way and the file opened
// is then matched (device and inode) against the checked path. Used by text-file.ts.
import type { Dirent } from "node:fs";
import { constants, existsSync, lstatSync, realpathSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { mkdir, open, readdir, realpath } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { errnoCode, ToolProblem } from "./problem.ts";

/** A file as the path check left it: where it really is, and the root it must stay inside. */
export interface CheckedPath {
  /** The real workspace (or spill) directory, symlinks resolved. */
  root: string;
  /** The file's real path inside `root`, every symlink resolved (the path the check judged). */
  real: string;
  /** As shown to the model. */
  display: string;
}

export interface OpenOptions {
  /** Create missing parent directories on the way (write). */
  makeParents?: boolean;
}

/** Opening a directory by descriptor works here (Linux); elsewhere, the prefix walk. */
const PROC_FD = existsSync("/proc/self/fd");
const NOFOLLOW = constants.O_NOFOLLOW;
const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | NOFOLLOW;

/**
 * Opens `checked.real` with `flags` (O_NOFOLLOW and O_NONBLOCK added), never through a symlink,
 * and checks that the file opened is inside the root. A path changed since the check (a
 * component now a symlink or not a directory) is refused: nothing is opened.
 */
export async function openInside(
  checked: CheckedPath,
  flags: number,
  options: OpenOptions = {},
): Promise<FileHandle> {
  const parts = componentsOf(checked);
  const handle = PROC_FD
    ? await openByDescriptor(checked, parts, flags, options)
    : await openByPrefix(checked, parts, flags, options);
  try {
    await checkOpened(handle, checked);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/**
 * Lists the directory `checked.real` as the check judged it: opened as `openInside` opens a
 * file (every component a directory that is not a symlink), then read through its descriptor
 * on Linux; elsewhere by path, once each prefix has been opened that way.
 */
export async function listInside(checked: CheckedPath): Promise<Dirent[]> {
  const parts = checked.real === checked.root ? [] : componentsOf(checked);
  let dir = await attempt(checked, () => open(checked.root, DIRECTORY_FLAGS));
  let path = checked.root;
  try {
    for (const part of parts) {
      path = join(path, part);
      const next = await openDirectory(
        checked,
        PROC_FD ? `/proc/self/fd/${dir.fd}/${part}` : path,
        {},
      );
      await dir.close();
      dir = next;
    }
    const at = PROC_FD ? `/proc/self/fd/${dir.fd}` : checked.real;
    return await readdir(at, { withFileTypes: true });
  } finally {
    await dir.close();
  }
}

function componentsOf(checked: CheckedPath): string[] {
  const rel = relative(checked.root, checked.real);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`)) {
    throw new ToolProblem(`${checked.display} is not a file inside the workspace`);
  }
  return rel.split(sep);
}

/** Linux: each directory opened through its parent's descriptor, the file through the last. */
async function openByDescriptor(
  checked: CheckedPath,
  parts: string[],
  flags: number,
  options: OpenOptions,
): Promise<FileHandle> {
  let dir = await attempt(checked, () => open(checked.root, DIRECTORY_FLAGS));
  try {
    for (const part of parts.slice(0, -1)) {
      const at = `/proc/self/fd/${dir.fd}/${part}`;
      const next = await openDirectory(checked, at, options);
      await dir.close();
      dir = next;
    }
    const last = `/proc/self/fd/${dir.fd}/${parts[parts.length - 1]}`;
    return await attempt(checked, () => open(last, flags | NOFOLLOW | constants.O_NONBLOCK, 0o666));
  } finally {
    await dir.close();
  }
}

/** Elsewhere: each prefix of the real path opened as a directory that is not a symlink. */
async function openByPrefix(
  checked: CheckedPath,
  parts: string[],
  flags: number,
  options: OpenOptions,
): Promise<FileHandle> {
  let path = checked.root;
  for (const part of parts.slice(0, -1)) {
    path = join(path, part);
    const dir = await openDirectory(checked, path, options);
    await dir.close();
  }
  const file = join(path, parts[parts.length - 1] ?? "");
  return attempt(checked, () => open(file, flags | NOFOLLOW | constants.O_NONBLOCK, 0o666));
}

/** A directory that is not a symlink, made first when missing and `makeParents` is set. */
async function openDirectory(
  checked: CheckedPath,
  path: string,
  options: OpenOptions,
): Promise<FileHandle> {
  try {
    return await open(path, DIRECTORY_FLAGS);
  } catch (error) {
    if (errnoCode(error) !== "ENOENT" || !options.makeParents) throw refusal(checked, error);
  }
  // mkdir never follows a symlink in the last place: one swapped in makes it fail (EEXIST).
  await mkdir(path).catch((error: unknown) => {
    if (errnoCode(error) !== "EEXIST") throw refusal(checked, error);
  });
  return attempt(checked, () => open(path, DIRECTORY_FLAGS));
}

/**
 * The file opened is the one the check judged: on Linux, where its descriptor leads is inside
 * the root; elsewhere, its device and inode are those of the checked path, not a symlink, whose
 * real path is inside the root.
 */
async function checkOpened(handle: FileHandle, checked: CheckedPath): Promise<void> {
  if (PROC_FD) {
    const where = await realpath(`/proc/self/fd/${handle.fd}`).catch(() => "");
    if (isInside(where, checked.root)) return;
    throw changed(checked);
  }
  const opened = await handle.stat();
  let same = false;
  try {
    const now = lstatSync(checked.real);
    same =
      !now.isSymbolicLink() &&
      now.dev === opened.dev &&
      now.ino === opened.ino &&
      isInside(realpathSync(checked.real), checked.root);
  } catch {
    same = false;
  }
  if (!same) throw changed(checked);
}

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

async function attempt(checked: CheckedPath, run: () => Promise<FileHandle>): Promise<FileHandle> {
  try {
    return await run();
  } catch (error) {
    throw refusal(checked, error);
  }
}

/** A symlink or a file where a directory was, since the check: the path changed under us. */
function refusal(checked: CheckedPath, error: unknown): ToolProblem {
  const code = errnoCode(error);
  if (code === "ELOOP" || code === "ENOTDIR" || code === "EEXIST") return changed(checked);
  if (code === "ENOENT") return new ToolProblem(`File not found: ${checked.display}`);
  return new ToolProblem(`Cannot open ${checked.display}: ${code ?? String(error)}`);
}

function changed(checked: CheckedPath): ToolProblem {
  return new ToolProblem(
    `${checked.display} changed while it was being opened (a part of its path is now a symbolic ` +
      "link, or leads outside the workspace); it was left alone: try again",
  );
}
