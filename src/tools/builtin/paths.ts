// Resolves the paths a model gives to tools: relative to the workspace and never outside it,
// following each symlink along the way, dangling ones too, so even a file a write would create is
// known before it exists. The session's spill directory is the one exception, for readers.

import { readlinkSync } from "node:fs";
import { isAbsolute, join, parse, relative, resolve, sep } from "node:path";
import { escapeAllControls } from "../../runner/index.ts";
import type { BuiltinToolContext } from "./context.ts";
import { ToolProblem } from "./problem.ts";

/** Symlinks followed while resolving one path before it counts as a loop (Linux's limit). */
export const MAX_SYMLINKS = 40;

export interface ResolvedPath {
  absolute: string;
  /** As shown to the model: relative to the workspace (or absolute inside the spill dir),
   * control characters as visible escapes. */
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
  const target = realTarget(absolute, input);
  const spillDir = context.spill?.dir;
  if (options.allowSpill && spillDir && isInside(realTarget(spillDir, spillDir), target)) {
    return { absolute, display: escapeAllControls(absolute), inSpill: true };
  }
  // Lexically inside, and (through every symlink, dangling or not) really inside.
  if (!isInside(context.cwd, absolute) || !isInside(realTarget(context.cwd, "."), target)) {
    throw new ToolProblem(
      `${escapeAllControls(input)} is outside the workspace (${context.cwd}); tools may only use paths inside it`,
    );
  }
  return {
    absolute,
    display: escapeAllControls(displayPath(context.cwd, absolute)),
    inSpill: false,
  };
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

/**
 * The path `absolute` really names: every symlink along it replaced by its target, a dangling
 * one too, and the missing rest joined on as written. Throws a ToolProblem on a symlink loop.
 */
export function realTarget(absolute: string, input: string): string {
  const { root } = parse(absolute);
  let current = root;
  let pending = components(absolute.slice(root.length));
  let followed = 0;
  while (pending.length > 0) {
    const [part, ...rest] = pending as [string, ...string[]];
    pending = rest;
    if (part === "..") {
      current = resolve(current, "..");
      continue;
    }
    const next = join(current, part);
    const link = readLink(next);
    if (link === null) {
      current = next;
      continue;
    }
    if (++followed > MAX_SYMLINKS) {
      throw new ToolProblem(
        `${escapeAllControls(input)} has too many levels of symbolic links (a loop?)`,
      );
    }
    if (isAbsolute(link)) current = parse(link).root;
    pending = [...components(link.slice(isAbsolute(link) ? parse(link).root.length : 0)), ...rest];
  }
  return current;
}

/** The target of a symlink, or null when the path is not one (or does not exist). */
function readLink(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    // EINVAL: not a symlink; ENOENT/ENOTDIR: nothing there, the rest is taken as written.
    return null;
  }
}

function components(path: string): string[] {
  return path.split(sep).filter((part) => part !== "" && part !== ".");
}
