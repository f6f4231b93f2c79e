// Two questions the sandbox's protected-path readers (sandbox-protect.ts, sandbox-git-paths.ts)
// ask of the disk before a command starts: what a path is without following it, and whether a
// path lies strictly inside a root.
import { lstatSync } from "node:fs";
import { isAbsolute, relative } from "node:path";

/** What is at `path`, the last link not followed. */
export function kindOf(path: string): "dir" | "file" | "link" | "missing" {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return "link";
    return stat.isDirectory() ? "dir" : "file";
  } catch {
    return "missing";
  }
}

/** True when `path` is below `root` (not `root` itself, not outside it). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}
