// A .gitignore-aware walk of the workspace for glob and the JS grep: every .gitignore from the
// workspace root down applies to its own directory (a deeper file's negation wins, as in git),
// `.git` is always skipped, symlinks are not followed, entries come sorted by name. Matching
// rules are the `ignore` package's; global excludes and .git/info/exclude are not read.
import type { Dirent } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
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
}

/** Yields the absolute path of every file not ignored, depth first, sorted by name. */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<string> {
  const inside = relative(options.root, options.start);
  const root = inside.startsWith("..") ? options.start : options.root;
  const levels = await ancestorLevels(root, relative(root, options.start));
  yield* walkDir(root, options.start, levels, options.signal);
}

async function* walkDir(
  root: string,
  dir: string,
  parents: Level[],
  signal: AbortSignal | undefined,
): AsyncGenerator<string> {
  if (signal?.aborted) return;
  const rel = toPosix(relative(root, dir));
  const own = await loadLevel(dir, rel);
  const levels = own ? [...parents, own] : parents;
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
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
      yield* walkDir(root, path, levels, signal);
    } else if (entry.isFile() && !isIgnored(levels, entryRel)) yield path;
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
