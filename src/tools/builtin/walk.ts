// A .gitignore-aware walk of the workspace for glob and the JS grep: every .gitignore from the
// workspace root down applies to its own directory (a deeper file's negation wins, as in git),
// `.git` is always skipped, symlinks are not followed, entries come sorted by name. Matching
// rules are the `ignore` package's; global excludes and .git/info/exclude are not read. With a
// real root, each folder is listed only where the walk expects it (checked through its open
// descriptor), so one swapped for a symlink mid-walk is skipped, never listed.
import type { Dirent } from "node:fs";
import { constants, existsSync } from "node:fs";
import { open, readdir, readFile, readlink, realpath } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import ignore from "ignore";

type Ignore = ReturnType<typeof ignore>;

interface Level {
  /** The directory holding the .gitignore, relative to the walk's root ("" for the root). */
  dir: string;
  rules: Ignore;
}

export interface WalkOptions {
  /** Where .gitignore files start to apply (the workspace root). */
  root: string;
  /** The directory to walk, inside `root` (or outside it: then it is its own root). */
  start: string;
  signal?: AbortSignal;
  /**
   * The real directory (symlinks resolved) the walk must stay inside: the start must really be
   * in it, and each folder is listed only when it is, at the moment of listing, the real folder
   * the walk expects (its descriptor says where it is), so no name from elsewhere is listed.
   */
  realRoot?: string;
}

/** Listing a folder through its descriptor works here (Linux); elsewhere, checked after. */
const PROC_FD = existsSync("/proc/self/fd");
const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** Yields the absolute path of every file not ignored, depth first, sorted by name. */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<string> {
  const inside = relative(options.root, options.start);
  const root = inside.startsWith("..") ? options.start : options.root;
  const levels = await ancestorLevels(root, relative(root, options.start));
  let real: string | undefined;
  if (options.realRoot !== undefined) {
    real = await realpath(options.start).catch(() => undefined);
    const rel = real === undefined ? ".." : relative(options.realRoot, real);
    if (rel === ".." || rel.startsWith(`..${sep}`) || rel.startsWith(sep)) return;
  }
  yield* walkDir({ root, signal: options.signal }, options.start, real, levels);
}

interface Walk {
  root: string;
  signal: AbortSignal | undefined;
}

async function* walkDir(
  walk: Walk,
  dir: string,
  real: string | undefined,
  parents: Level[],
): AsyncGenerator<string> {
  if (walk.signal?.aborted) return;
  const rel = toPosix(relative(walk.root, dir));
  const own = await loadLevel(dir, rel);
  const levels = own ? [...parents, own] : parents;
  let entries: Dirent[];
  try {
    entries =
      real === undefined ? await readdir(dir, { withFileTypes: true }) : await listAt(dir, real);
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.isSymbolicLink()) continue;
    const path = join(dir, entry.name);
    const entryRel = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (entry.name === ".git" || isIgnored(levels, `${entryRel}/`)) continue;
      yield* walkDir(walk, path, real === undefined ? undefined : join(real, entry.name), levels);
    } else if (entry.isFile() && !isIgnored(levels, entryRel)) yield path;
  }
}

/**
 * The entries of `dir`, when it is really `real`: on Linux opened without following a link in
 * its last place, its descriptor's path checked, and read through the descriptor; elsewhere
 * read by path and its real path checked after. Throws when it is somewhere else.
 */
async function listAt(dir: string, real: string): Promise<Dirent[]> {
  if (!PROC_FD) {
    const entries = await readdir(dir, { withFileTypes: true });
    if ((await realpath(dir)) !== real) throw new Error(`${dir} moved while it was listed`);
    return entries;
  }
  const handle = await open(dir, DIRECTORY_FLAGS);
  try {
    const at = `/proc/self/fd/${handle.fd}`;
    if ((await readlink(at)) !== real) throw new Error(`${dir} moved while it was listed`);
    return await readdir(at, { withFileTypes: true });
  } finally {
    await handle.close();
  }
}

/** Whether `path` (relative to the root, `/`-separated, dirs ending in `/`) is ignored. */
export function isIgnored(levels: readonly Level[], path: string): boolean {
  let ignored = false;
  for (const level of levels) {
    if (level.dir && !path.startsWith(`${level.dir}/`)) continue;
    const result = level.rules.test(level.dir ? path.slice(level.dir.length + 1) : path);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

/** The .gitignore levels of the root and every directory between it and `startRel`. */
async function ancestorLevels(root: string, startRel: string): Promise<Level[]> {
  const parts = startRel ? toPosix(startRel).split("/") : [];
  const levels: Level[] = [];
  for (let depth = 0; depth < parts.length; depth++) {
    const rel = parts.slice(0, depth).join("/");
    const level = await loadLevel(join(root, ...parts.slice(0, depth)), rel);
    if (level) levels.push(level);
  }
  return levels;
}

async function loadLevel(dir: string, rel: string): Promise<Level | null> {
  let text: string;
  try {
    text = await readFile(join(dir, ".gitignore"), "utf8");
  } catch {
    return null;
  }
  return { dir: rel, rules: ignore().add(text) };
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}
