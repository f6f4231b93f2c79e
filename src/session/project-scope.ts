// Which sessions belong to a directory: the project root a directory is in (the nearest
// directory above it holding `.git`, or the project config's root when that is nearer), and
// whether a session's recorded cwd is at or below a directory. Used by `sessions list` (its
// default scope) and by `exec --continue` (the newest session of the project).
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/**
 * The root of the project `dir` is in: the nearer of the repository root (a `.git` entry) and
 * `configRoot` (the directory holding the project's `.codewhale/config.toml`, when there is
 * one); undefined outside any project.
 */
export function projectRootOf(dir: string, configRoot?: string): string | undefined {
  const at = resolve(dir);
  const git = repositoryRoot(at);
  const config =
    configRoot !== undefined && isAtOrBelow(at, configRoot) ? resolve(configRoot) : undefined;
  if (git === undefined) return config;
  if (config === undefined) return git;
  return config.length > git.length ? config : git;
}

/** True when `path` is `dir` or inside it (compared as resolved paths, not by prefix text). */
export function isAtOrBelow(path: string, dir: string): boolean {
  const rest = relative(resolve(dir), resolve(path));
  return rest === "" || (rest !== ".." && !rest.startsWith(`..${sep}`) && !rest.startsWith(sep));
}

function repositoryRoot(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, ".git"))) return at;
    if (dirname(at) === at) return undefined;
  }
}
