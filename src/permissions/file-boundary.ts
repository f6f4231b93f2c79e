// Where the built-in file tools may work, as the tools themselves enforce it: inside the
// session's directory (symlinks followed, dangling ones too), readers also in the session's
// spill directory, and no write to a file with several hard links. The permission layer denies
// anything else in every mode, so its answer and its advice match what the tools would do.
import { realpathSync, statSync } from "node:fs";
import { isWithin } from "../config/index.ts";
import { followSymlinks } from "../runner/index.ts";

/** The tools that may read the session's spill directory (as tools/builtin/paths.ts allows). */
const SPILL_READERS: ReadonlySet<string> = new Set(["read", "grep", "ls"]);

export interface BoundaryContext {
  /** The directory the file tools work in. */
  cwd: string;
  spillDir?: string;
}

/**
 * The path and, when a symlink on the way (dangling or not) leads elsewhere, its target; `real`
 * is that target when the caller has it already.
 */
export function withResolved(
  path: string,
  real: string | undefined = followSymlinks(path),
): string[] {
  return real === undefined || real === path ? [path] : [path, real];
}

/**
 * Why a file tool's call may not touch `paths` (the path as given and as resolved), in every
 * mode, or undefined when it may. `edits` is true for tools that change files.
 */
export function outsideBecause(
  tool: string,
  paths: readonly string[],
  edits: boolean,
  ctx: BoundaryContext,
): string | undefined {
  const roots = withResolved(ctx.cwd);
  const spill = ctx.spillDir && SPILL_READERS.has(tool) ? withResolved(ctx.spillDir) : [];
  const within = (path: string, dirs: string[]) => dirs.some((dir) => isWithin(path, dir));
  if (paths.length > 0 && paths.every((path) => within(path, spill))) return undefined;
  const outside = paths.find((path) => !within(path, roots));
  if (outside !== undefined) {
    return `${outside} is outside the workspace ${ctx.cwd}: the file tools work only inside it, in every permission mode and whatever the rules allow (run codewhale with --cwd set to a directory that holds it)`;
  }
  const links = edits ? linkCount(paths[paths.length - 1]) : 1;
  if (links > 1) {
    return `${paths[0]} has ${links} hard links, so one of its names may be outside the workspace: write and edit treat it as outside, in every permission mode`;
  }
  return undefined;
}

/** Where `path` really is (realpath), or the path itself when it does not exist. */
export function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The link count of an existing regular file, else 1. */
function linkCount(path: string | undefined): number {
  if (path === undefined) return 1;
  try {
    const info = statSync(path);
    return info.isFile() ? info.nlink : 1;
  } catch {
    return 1;
  }
}
