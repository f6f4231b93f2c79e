// The project a directory is in, for choosing sessions: the nearer of the repository root (the
// nearest directory at or above it holding `.git`) and the project config's root (the one
// holding `.codewhale/config.toml`). Used by `sessions list` (its default scope) and by
// `exec --continue` (the newest session of the project), with isWithin (prompt-paths.ts).
import { readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isWithin } from "./prompt-paths.ts";

/**
 * The root of the project `dir` is in: the nearer of the repository root and `configRoot`
 * (LoadedConfig.projectRoot, when there is a project file); undefined outside any project.
 */
export function projectRootOf(dir: string, configRoot?: string): string | undefined {
  const at = resolve(dir);
  const git = repositoryRoot(at);
  const config =
    configRoot !== undefined && isWithin(at, resolve(configRoot)) ? resolve(configRoot) : undefined;
  if (git === undefined) return config;
  if (config === undefined) return git;
  return config.length > git.length ? config : git;
}

/**
 * The nearest directory at or above `dir` (absolute) holding `.git`; undefined if none. An empty
 * `.git` directory (a sandbox's mount point) is passed over, as git does.
 */
export function repositoryRoot(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (isRepository(join(at, ".git"))) return at;
    if (dirname(at) === at) return undefined;
  }
}

function isRepository(dotGit: string): boolean {
  try {
    return !statSync(dotGit).isDirectory() || readdirSync(dotGit).length > 0;
  } catch {
    return false;
  }
}
