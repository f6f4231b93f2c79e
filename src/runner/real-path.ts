// Where a path really leads: every symlink along it replaced by its target, dangling ones too,
// the missing rest joined on as written, so even a file a write would create is known before it
// exists. Shared by the tools' workspace boundary (tools/builtin/paths.ts) and the permission
// layer's path matching (permissions/evaluate.ts), so both judge a path by the same target.
import { readlinkSync } from "node:fs";
import { isAbsolute, join, parse, resolve, sep } from "node:path";

/** Symlinks followed while resolving one path before it counts as a loop (Linux's limit). */
export const MAX_SYMLINKS = 40;

/** The real target of the absolute path `absolute`, or undefined for a loop of symlinks. */
export function followSymlinks(absolute: string): string | undefined {
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
    if (++followed > MAX_SYMLINKS) return undefined;
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
