// Tells the model when a command failed because the sandbox refused a write: a "Read-only file
// system" (EROFS) or "Permission denied" (EACCES) line naming a path outside the policy's
// writable roots (or on a protected path inside them). Called by the bash tool on each result.
import { isAbsolute, relative, resolve } from "node:path";
import type { SandboxPolicy } from "./sandbox-policy.ts";
import { protectedCandidates } from "./sandbox-protect.ts";

/** An absolute path (not the tail of a relative one: `.husky/pre-commit` is read below). */
const REFUSAL =
  /(?<![^\s'"`‘(=])(\/[^\s:'"`]*)['"`]?:?[^\n]*?(Read-only file system|Permission denied)/g;
/** A relative path right before the error (`bash: line 1: .mcp.json: Permission denied`). */
const RELATIVE_REFUSAL =
  /(?:^|[\s'"`‘])([^\s/:'"`‘’][^\s:'"`‘’]*)['"`’]?: (Read-only file system|Permission denied)/g;

/** A note naming the sandbox and the refused paths, or null when the output shows no refusal. */
export function sandboxRefusalNote(output: string, policy: SandboxPolicy | null): string | null {
  return sandboxRefusal(output, policy)?.note ?? null;
}

/** The paths the sandbox refused to let the command write, with the note; null: none. */
export function sandboxRefusal(
  output: string,
  policy: SandboxPolicy | null,
): { paths: string[]; note: string } | null {
  if (!policy) return null;
  const refused = new Set<string>();
  const matches = [
    ...output.matchAll(REFUSAL),
    // Relative to where commands start, the workspace.
    ...[...output.matchAll(RELATIVE_REFUSAL)].map((m) => [
      m[0],
      resolve(policy.workspace, m[1] ?? ""),
      m[2],
    ]),
  ];
  for (const match of matches) {
    const path = match[1] ?? "";
    const readOnlyError = match[2] === "Read-only file system";
    if (readOnlyError || !writableUnder(policy, path)) refused.add(path);
  }
  if (refused.size === 0) return null;
  const paths = [...refused].slice(0, 3).join(", ");
  const where =
    policy.mode === "read-only"
      ? "nothing is writable"
      : `only ${policy.writable.join(", ")} ${policy.writable.length === 1 ? "is" : "are"} writable (not ${protectedNames(policy)})`;
  const note = `[sandbox: the command ran in the OS sandbox (${policy.mode}), which refused writing ${paths}: ${where}. This is the sandbox, not a bug in the command; do not retry the same write.]`;
  return { paths: [...refused], note };
}

function writableUnder(policy: SandboxPolicy, path: string): boolean {
  const inside = (root: string) => {
    const rel = relative(root, path);
    return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
  };
  const protectedPaths = [...policy.readOnly, ...protectedCandidates(policy)];
  return policy.writable.some(inside) && !protectedPaths.some(inside);
}

/** At most this many protected paths are named (a repository with submodules has many). */
const NAMED_AT_MOST = 8;

function protectedNames(policy: SandboxPolicy): string {
  const names = [...new Set([...policy.readOnly, ...protectedCandidates(policy)])];
  if (names.length === 0) return "protected paths";
  const more = names.length - NAMED_AT_MOST;
  const shown = names.slice(0, NAMED_AT_MOST).join(", ");
  return more > 0 ? `${shown} and ${more} more that run later outside the sandbox` : shown;
}
