// Puts the workspace's files back as a checkpoint's tree has them: the difference between two
// trees of the store, applied by codewhale itself. Every path is checked first (no `..`, no
// `.git`, no absolute path), every folder on the way must be a real folder inside the
// workspace (never a symlink), a file is written beside its place and renamed over it, and a
// symlink is made, never followed. So a hostile workspace cannot make a restore write outside
// it. Called by rewind.ts.
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname, join, sep } from "node:path";
import { CheckpointError } from "../errors.ts";
import type { GitPlace } from "./git.ts";
import { runGit } from "./git.ts";
import { readBlob } from "./objects.ts";
import { type CapturedFile, entryIn, parseRawDiff } from "./store.ts";

/** The name a file being restored has until it is renamed into place. */
const TEMP_PREFIX = ".codewhale-restore-";

/**
 * Removes what a restore killed half way left in the folders of `steps`: files it was writing,
 * not yet renamed into place (only real folders inside the workspace are looked in).
 */
export function removeLeftovers(place: GitPlace, steps: readonly RestoreStep[]): void {
  const root = realpathSync(place.workTree);
  const folders = new Set(steps.map((step) => step.path.split("/").slice(0, -1).join("/")));
  for (const folder of folders) {
    try {
      const dir = parentOf(root, folder === "" ? "x" : `${folder}/x`, false);
      for (const name of dir === null ? [] : readdirSync(dir)) {
        const path = join(dir ?? root, name);
        if (name.startsWith(TEMP_PREFIX) && !lstatSync(path).isDirectory()) unlinkSync(path);
      }
    } catch {
      // A folder gone or not inside the workspace holds nothing of ours.
    }
  }
}

/** One file to put back: its target blob and mode, or null to remove it. */
export interface RestoreStep {
  path: string;
  hash: string | null;
  mode?: number;
}

/**
 * The steps that turn tree `from` (with exact modes `fromModes`) into tree `to`, removals
 * first; only `only` (a path, or a folder with everything below it) when given.
 */
export async function planRestore(
  place: GitPlace,
  from: { tree: string; modes: Map<string, number> },
  to: { tree: string; modes: Map<string, number> },
  only?: string,
): Promise<RestoreStep[]> {
  const raw = await runGit(place, ["diff-tree", "-r", "-z", "--no-renames", from.tree, to.tree]);
  const steps = new Map<string, RestoreStep>();
  for (const change of parseRawDiff(raw)) {
    if (change.deleted) steps.set(change.path, { path: change.path, hash: null });
    else {
      const mode = to.modes.get(change.path) ?? change.mode;
      steps.set(change.path, { path: change.path, hash: change.hash, mode });
    }
  }
  for (const path of new Set([...from.modes.keys(), ...to.modes.keys()])) {
    if (steps.has(path) || from.modes.get(path) === to.modes.get(path)) continue;
    const entry = await entryIn(place, to.tree, path);
    if (entry) steps.set(path, { path, hash: entry.hash, mode: to.modes.get(path) ?? entry.mode });
  }
  const chosen = [...steps.values()].filter(
    (step) => only === undefined || within(step.path, only),
  );
  const removals = chosen.filter((step) => step.hash === null).sort(deepestFirst);
  const writes = chosen.filter((step) => step.hash !== null).sort(byPath);
  return [...removals, ...writes];
}

/** Applies the steps in order; returns them as checkpoint files. */
export function applyRestore(place: GitPlace, steps: readonly RestoreStep[]): CapturedFile[] {
  const root = realpathSync(place.workTree);
  const done: CapturedFile[] = [];
  for (const step of steps) {
    checkRelative(step.path);
    if (step.hash === null) {
      removeFile(root, step.path);
      done.push({ path: step.path, hash: null });
    } else {
      writeEntry(root, step.path, readBlob(place.gitDir, step.hash), step.mode ?? 0o100644);
      done.push({ path: step.path, hash: step.hash, mode: step.mode ?? 0o100644 });
    }
  }
  return done;
}

/** Refuses a path that could leave the workspace or reach a `.git`. */
export function checkRelative(path: string): void {
  const parts = path.split("/");
  const bad =
    path === "" ||
    path.startsWith("/") ||
    path.includes("\0") ||
    parts.some(
      (part) => part === "" || part === "." || part === ".." || part.toLowerCase() === ".git",
    );
  if (bad)
    throw new CheckpointError(
      `refusing to restore ${JSON.stringify(path)}: not a path inside the workspace`,
    );
}

/**
 * The real folder that holds `path`, each folder on the way made when missing; a symlink or a
 * file where a folder must be is refused (a symlink in the way is never followed).
 */
function parentOf(root: string, path: string, make: boolean): string | null {
  const parts = path.split("/").slice(0, -1);
  let dir = root;
  for (const part of parts) {
    dir = join(dir, part);
    let stat: ReturnType<typeof lstatSync> | undefined;
    try {
      stat = lstatSync(dir);
    } catch {
      if (!make) return null;
      mkdirSync(dir);
      continue;
    }
    if (stat.isSymbolicLink() || !stat.isDirectory()) {
      if (!make) return null;
      throw new CheckpointError(
        `cannot restore ${path}: ${dir} is not a folder (a symlink or a file is in the way)`,
      );
    }
  }
  if (realpathSync(dir) !== dir) {
    throw new CheckpointError(`cannot restore ${path}: ${dir} is outside the workspace`);
  }
  return dir;
}

function writeEntry(root: string, path: string, bytes: Buffer, mode: number): void {
  const dir = parentOf(root, path, true);
  if (dir === null) return;
  const name = path.split("/").at(-1) ?? "";
  const temp = join(dir, `${TEMP_PREFIX}${randomBytes(6).toString("hex")}`);
  if ((mode & 0o170000) === 0o120000) symlinkSync(bytes.toString("utf8"), temp);
  else {
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    const fd = openSync(temp, flags, 0o600);
    try {
      writeSync(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temp, permissionsOf(mode));
  }
  const target = join(dir, name);
  try {
    renameSync(temp, target);
  } catch (error) {
    unlinkSync(temp);
    throw new CheckpointError(`cannot restore ${path}: ${(error as Error).message}`);
  }
}

/** A tree mode's permission bits: 100755 and 100644 as git means them, else exact. */
function permissionsOf(mode: number): number {
  if (mode === 0o100755) return 0o755;
  if (mode === 0o100644) return 0o644;
  return mode & 0o7777;
}

/** Removes a file (or symlink) and the folders it leaves empty, up to the workspace root. */
function removeFile(root: string, path: string): void {
  const dir = parentOf(root, path, false);
  if (dir === null) return;
  const target = join(dir, path.split("/").at(-1) ?? "");
  try {
    if (lstatSync(target).isDirectory()) return;
    unlinkSync(target);
  } catch {
    return;
  }
  let folder = dir;
  while (folder !== root && folder.startsWith(`${root}${sep}`)) {
    try {
      rmdirSync(folder);
    } catch {
      return;
    }
    folder = dirname(folder);
  }
}

function within(path: string, only: string): boolean {
  const prefix = only.replace(/\/+$/, "");
  return path === prefix || path.startsWith(`${prefix}/`);
}

function byPath(a: RestoreStep, b: RestoreStep): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function deepestFirst(a: RestoreStep, b: RestoreStep): number {
  return b.path.split("/").length - a.path.split("/").length || byPath(a, b);
}
