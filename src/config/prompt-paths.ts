// Where a project may take prompt text from: a file whose real path (links resolved) is inside
// the project, or inside one of the user file's `allowed_prompt_dirs`. The project gate checks a
// project's `system_prompt_file` with it; the system prompt builder checks instruction files.
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";

export type PromptPlace = { ok: true; realPath: string } | { ok: false; realPath: string };

/** Whether `path`, links resolved, lies inside `root` or one of `allowedDirs`. */
export function promptFilePlace(
  path: string,
  root: string,
  allowedDirs: readonly string[],
): PromptPlace {
  const realPath = realOrResolved(path);
  const inside = [root, ...allowedDirs].some((dir) => isWithin(realPath, realOrResolved(dir)));
  return { ok: inside, realPath };
}

/** True when `path` is `dir` or below it; both absolute. */
export function isWithin(path: string, dir: string): boolean {
  const rest = relative(dir, path);
  return rest === "" || (rest !== ".." && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}

/** The real path when it exists, else the absolute path as written. */
export function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
