// Deleting a session for good (`codewhale sessions forget ID --delete`): under the writer lock,
// so a session some live process has open is never deleted (SessionLockedError), and only once
// `confirm` agrees, the log and the session's other folders (its checkpoint store) are removed.
// Called by cli/sessions-search.ts; the search index is the caller's to update.
import { rmSync, unlinkSync } from "node:fs";
import { acquireWriterLock } from "./lock.ts";
import { sessionIdOfPath } from "./paths.ts";

/** Removes the log at `path` and `alsoRemove` (folders) after `confirm`; false when declined. */
export async function deleteSessionLog(
  path: string,
  alsoRemove: readonly string[],
  confirm: () => Promise<boolean>,
): Promise<boolean> {
  const release = acquireWriterLock(path, sessionIdOfPath(path));
  try {
    if (!(await confirm())) return false;
    for (const dir of alsoRemove) rmSync(dir, { recursive: true, force: true });
    unlinkSync(path);
    return true;
  } finally {
    release();
  }
}
