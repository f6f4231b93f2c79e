// The one notice `codewhale exec` prints when it starts somewhere a person rarely means to let
// an agent write: the home directory, `/`, or a directory outside any git repository (no
// history to undo with). Called by exec-command.ts; the line names the workspace tools write to.
import { homedir } from "node:os";
import { resolve } from "node:path";
import { repositoryRoot } from "../config/index.ts";

/** The notice for starting in `cwd`, or null when it is inside a git repository (not $HOME). */
export function workspaceNotice(
  cwd: string,
  home: string = process.env.HOME || homedir(),
): string | null {
  const dir = resolve(cwd);
  const where = (why: string) =>
    `codewhale: the workspace is ${dir} (${why}): tools may write anywhere under it`;
  if (dir === resolve(home)) return where("your home directory");
  if (dir === "/") return where("the root directory");
  if (repositoryRoot(dir) === undefined) return where("not a git repository");
  return null;
}
