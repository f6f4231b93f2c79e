// Resolves the paths a model gives to tools: relative to the workspace, never outside it (the
// permission layer will decide such reaches later; until then they are refused), symlinks
// included. The session's spill directory is the one exception, for tools that may read it.
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { BuiltinToolContext } from "./context.ts";
import { ToolProblem } from "./problem.ts";

export interface ResolvedPath {
  absolute: string;
  /** As shown to the model: relative to the workspace, or absolute inside the spill dir. */
  display: string;
  /** True when the path is in the session's spill directory. */
  inSpill: boolean;
}

export interface ResolveOptions {
  /** Also accept paths inside the session's spill directory (read, grep). */
  allowSpill?: boolean;
}

export function resolveToolPath(
  context: BuiltinToolContext,
  input: string,
  options: ResolveOptions = {},
): ResolvedPath {
  const absolute = resolve(context.cwd, input);
  const spillDir = context.spill?.dir;
  if (
    options.allowSpill &&
    spillDir &&
    (isInside(spillDir, absolute) || realInside(spillDir, absolute))
  ) {
    return { absolute, display: absolute, inSpill: true };
  }
  const outside = new ToolProblem(
    `${input} is outside the workspace (${context.cwd}); tools may only use paths inside it`,
  );
  if (!isInside(context.cwd, absolute)) throw outside;
  // A symlink inside the workspace must not lead out of it.
  if (!realInside(context.cwd, absolute)) throw outside;
  return { absolute, display: displayPath(context.cwd, absolute), inSpill: false };
}

/** Relative to the workspace ("." for the root), or absolute when outside it. */
export function displayPath(cwd: string, absolute: string): string {
  if (!isInside(cwd, absolute)) return absolute;
  return relative(cwd, absolute) || ".";
}

export function isInside(root: string, path: string): boolean {
  const rel = relative(resolve(root), resolve(path));
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** Whether the real path (of the deepest existing ancestor) stays inside the real root. */
function realInside(root: string, path: string): boolean {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return false;
  }
  let existing = path;
  let rest = "";
  for (;;) {
    try {
      const real = realpathSync(existing);
      return isInside(realRoot, resolve(real, rest));
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return false;
      rest = join(basename(existing), rest);
      existing = parent;
    }
  }
}
