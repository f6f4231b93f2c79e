// A directory made into the smallest git repository codewhale's lookups recognise: `.git` with a
// HEAD. An empty `.git` is no repository (the sandbox leaves one as the mount point for a
// missing `.git`), so tests that need a project root write this instead of `mkdir .git`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Makes `dir` (and its parents) a repository root: `.git/HEAD` naming `main`. */
export function markRepository(dir: string): void {
  mkdirSync(join(dir, ".git"), { recursive: true });
  writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
}
