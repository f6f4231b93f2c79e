// Around one sandboxed command, wherever it runs (runCommand here, or an ACP editor's terminal
// the bash tool hands the argv to): before it, the mount points of the workspace's missing
// protected paths (sandbox-placeholders.ts) and the deep watch (sandbox-deep-run-files.ts);
// after it, the nested repositories git would run a program for (sandbox-git-watch.ts) and the
// run-on-host files it created or changed, renamed aside or put back (sandbox-run-files.ts).
import { watchRunFiles } from "./sandbox-deep-run-files.ts";
import { nestedRepoNote, nestedRepoWarnings } from "./sandbox-git-watch.ts";
import type { HeldProtection } from "./sandbox-placeholders.ts";
import { holdPlaceholders } from "./sandbox-placeholders.ts";
import type { SandboxPolicy } from "./sandbox-policy.ts";
import { restoredNote, setAsideNote, setAsideRunFiles } from "./sandbox-run-files.ts";

/** What a sandboxed command left that the host must not run (each absent when none). */
export interface SandboxAftermath {
  /** Nested repositories whose git config or hooks run a program, not reported before. */
  nestedRepos?: string[];
  /** Run-on-host files the command created (or changed where no copy was kept), renamed aside. */
  setAside?: string[];
  /** Run-on-host files below the top level the command changed, put back as they were. */
  restored?: string[];
}

export interface SandboxCommandGuard {
  /** The held mount points, for the command's bwrap arguments. */
  readonly held: HeldProtection;
  /** Once the command has ended: checks and undoes what it left. */
  finish(): SandboxAftermath;
  /**
   * Always, after the command (and finish, when it ran): settles the watch, frees the mounts;
   * without finish, the files are still renamed aside or put back (with no note to show).
   */
  release(): void;
}

/** Call before starting the command; release it however the command ends. */
export function guardSandboxedCommand(policy: SandboxPolicy): SandboxCommandGuard {
  // The workspace's missing protected paths get mount points (kept until the session ends).
  const held = holdPlaceholders(policy);
  let watch: ReturnType<typeof watchRunFiles> = null;
  try {
    // Run-on-host files below the top level: what the command creates or changes is undone.
    watch = watchRunFiles(policy);
  } catch (error) {
    held.release();
    throw error;
  }
  let finished = false;
  return {
    held,
    finish() {
      finished = true;
      // What the command may have left for git on the host to run (the index stays writable).
      const nestedRepos = nestedRepoWarnings(policy);
      const top = setAsideRunFiles(policy, held.protection.absentFiles);
      const deep = watch?.settle() ?? { setAside: [], restored: [] };
      const setAside = [...top, ...deep.setAside];
      return {
        ...(nestedRepos.length > 0 ? { nestedRepos } : {}),
        ...(setAside.length > 0 ? { setAside } : {}),
        ...(deep.restored.length > 0 ? { restored: deep.restored } : {}),
      };
    },
    release() {
      // A run that failed before finish (the editor went away): the files are undone all the same.
      if (!finished) setAsideRunFiles(policy, held.protection.absentFiles);
      watch?.settle();
      held.release();
    },
  };
}

/**
 * The notes the model reads after the command, each on its own line (a leading newline each);
 * an absent or empty list has none.
 */
export function aftermathNote(after: SandboxAftermath): string {
  const nested = after.nestedRepos?.length ? `\n${nestedRepoNote(after.nestedRepos)}` : "";
  const setAside = after.setAside?.length ? `\n${setAsideNote(after.setAside)}` : "";
  const restored = after.restored?.length ? `\n${restoredNote(after.restored)}` : "";
  return nested + setAside + restored;
}
