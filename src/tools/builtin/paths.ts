// Resolves the paths a model gives to tools: relative to the workspace and never outside it,
// following each symlink along the way, dangling ones too, so even a file a write would create is
// known before it exists. The session's spill directory is the one exception, for readers; a
// reader's path also passes the read gate (read-gate.ts).

import { relative, resolve } from "node:path";
import { isWithin } from "../../config/index.ts";
import { followSymlinks, terminalSafeLine } from "../../runner/index.ts";
import type { BuiltinToolContext } from "./context.ts";
import { ToolProblem } from "./problem.ts";
import { checkReadable } from "./read-gate.ts";

export interface ResolvedPath {
  absolute: string;
  /** As shown to the model: relative to the workspace (or absolute inside the spill dir),
   * control characters as visible escapes. */
  display: string;
  /** True when the path is in the session's spill directory. */
  inSpill: boolean;
  /** Where it really is (every symlink resolved): the file the tools open (open-inside.ts). */
  real: string;
  /** The real directory it must stay inside: the workspace's, or the spill directory's. */
  root: string;
}

export interface ResolveOptions {
  /** Also accept paths inside the session's spill directory (read, grep). */
  allowSpill?: boolean;
  /** The reading tool resolving the path: refused when a permission rule covers it reading it. */
  readBy?: string;
}

export function resolveToolPath(
  context: BuiltinToolContext,
  input: string,
  options: ResolveOptions = {},
): ResolvedPath {
  const absolute = resolve(context.cwd, input);
  const target = realTarget(absolute, input);
  const spillDir = context.spill?.dir;
  const spillRoot = spillDir === undefined ? undefined : realTarget(spillDir, spillDir);
  if (options.allowSpill && spillRoot !== undefined && isWithin(target, spillRoot)) {
    const display = terminalSafeLine(absolute);
    return { absolute, display, inSpill: true, real: target, root: spillRoot };
  }
  // Lexically inside, and (through every symlink, dangling or not) really inside.
  const root = realTarget(context.cwd, ".");
  if (!isWithin(absolute, context.cwd) || !isWithin(target, root)) {
    throw new ToolProblem(
      `${terminalSafeLine(input)} is outside the workspace (${context.cwd}); tools may only use paths inside it`,
    );
  }
  const display = terminalSafeLine(displayPath(context.cwd, absolute));
  if (options.readBy) checkReadable(context, options.readBy, absolute, target, display);
  return { absolute, display, inSpill: false, real: target, root };
}

/** Relative to the workspace ("." for the root), or absolute when outside it. */
export function displayPath(cwd: string, absolute: string): string {
  if (!isWithin(absolute, cwd)) return absolute;
  return relative(cwd, absolute) || ".";
}

/**
 * The path `absolute` really names: every symlink along it replaced by its target, a dangling
 * one too, and the missing rest joined on as written. Throws a ToolProblem on a symlink loop.
 */
export function realTarget(absolute: string, input: string): string {
  const target = followSymlinks(absolute);
  if (target !== undefined) return target;
  throw new ToolProblem(
    `${terminalSafeLine(input)} has too many levels of symbolic links (a loop?)`,
  );
}
