// After a sandboxed command: the run-on-host files (sandbox-protect.ts RUN_ON_HOST_FILES:
// `.mcp.json`, `.envrc`, `.npmrc`, `.gitmodules`, `mise.toml`…) it created at the workspace's top, where a
// missing one has no mount point (an empty file there would show in `git status`, a `/dev/null`
// one breaks `git add -A`). Each is renamed aside to `<name>.codewhale-refused` as the command
// ends, before direnv, an editor, git or a package manager on the host can run it, and named
// in the result. Called by sandbox-command-guard.ts with the names missing as the command started
// (Protection.absentFiles, read with the rest of the protected paths). Below the top level,
// sandbox-deep-run-files.ts does the same, and puts back one the command changed; both are
// named in the notes here.
import { renameSync } from "node:fs";
import { join } from "node:path";
import { terminalSafeLine } from "./escape-controls.ts";
import { kindOf } from "./path-kind.ts";
import type { SandboxPolicy } from "./sandbox-policy.ts";

/** What a file the command created is renamed to, beside it. */
export const SET_ASIDE_SUFFIX = ".codewhale-refused";

/**
 * Renames aside each of `missing` the command created (a file, a directory or a link, never
 * followed); returns their names. One that cannot be renamed is named all the same.
 */
export function setAsideRunFiles(policy: SandboxPolicy, missing: readonly string[]): string[] {
  const made = missing.filter((name) => kindOf(join(policy.workspace, name)) !== "missing");
  for (const name of made) {
    const path = join(policy.workspace, name);
    try {
      renameSync(path, `${path}${SET_ASIDE_SUFFIX}`);
    } catch {
      // A directory where the older copy is: named in the note, left for the user.
    }
  }
  return made;
}

/** The note the model reads after a command that created such files. */
export function setAsideNote(names: readonly string[]): string {
  return refusedNote(
    "write",
    names,
    "a coding agent's MCP servers, direnv, git, an editor, a package manager",
    `renamed what the command created to <name>${SET_ASIDE_SUFFIX}`,
  );
}

/** The note the model reads after a command that changed such files below the top level. */
export function restoredNote(names: readonly string[]): string {
  return refusedNote(
    "change",
    names,
    "direnv, git, an editor, a package manager",
    `put back what was there before the command and renamed the command's version to <name>${SET_ASIDE_SUFFIX}`,
  );
}

/** Both notes: what was refused, which host tools would run it, what the sandbox did instead. */
function refusedNote(
  act: "write" | "change",
  names: readonly string[],
  hostTools: string,
  done: string,
): string {
  const list = names.map(terminalSafeLine).join(", ");
  const acting = act === "write" ? "writing" : "changing";
  return `[sandbox: refused ${acting} ${list}: a tool on the host (${hostTools}) would run what it says without the user naming it, so the sandbox ${done}. To ${act} such a file, use the write or edit tool, which asks the user.]`;
}
