// Tells the model when a command failed because the sandbox refused a write: a "Read-only file
// system" (EROFS) or "Permission denied" (EACCES) line naming a path outside the policy's
// writable roots (or on a protected path inside them); or a unix socket, which the seccomp filter
// refuses (sandbox-socket-refusal.ts). Called by the bash tool on each result.
import { isAbsolute, relative, resolve } from "node:path";
import type { SandboxPolicy } from "./sandbox-policy.ts";
import { protectedCandidates } from "./sandbox-protect.ts";
import { refusedSockets, UNNAMED_SOCKET } from "./sandbox-socket-refusal.ts";

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

/** What the sandbox refused the command, with the note for the model. */
interface SandboxRefusal {
  /** The paths it was refused writing. */
  paths: string[];
  /** The unix sockets it was refused (a path, or "a unix socket" where the output names none). */
  sockets: string[];
  note: string;
}

/** What the sandbox refused the command (writes, unix sockets), with the note; null: nothing. */
export function sandboxRefusal(
  output: string,
  policy: SandboxPolicy | null,
): SandboxRefusal | null {
  if (!policy) return null;
  const paths = refusedWrites(output, policy);
  const sockets = refusedSockets(output);
  const notes = [
    ...(paths.length > 0 ? [writeNote(paths, policy)] : []),
    ...(sockets.length > 0 ? [socketNote(sockets, policy)] : []),
  ];
  return notes.length > 0 ? { paths, sockets, note: notes.join("\n") } : null;
}

/** How the refused sockets are named: `the unix socket /path`, or "a unix socket". */
export function socketNames(sockets: readonly string[]): string {
  const named = sockets.filter((socket) => socket !== UNNAMED_SOCKET).slice(0, 3);
  return named.length > 0
    ? `the unix socket${named.length > 1 ? "s" : ""} ${named.join(", ")}`
    : UNNAMED_SOCKET;
}

function socketNote(sockets: readonly string[], policy: SandboxPolicy): string {
  return `[sandbox: the command ran in the OS sandbox (${policy.mode}), which refused connecting to ${socketNames(sockets)}: unix sockets are refused in the sandbox (no command inside may make one: docker, D-Bus, ssh-agent, a database's local socket). This is the sandbox, not a bug in the command; do not retry the same connection.]`;
}

function refusedWrites(output: string, policy: SandboxPolicy): string[] {
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
  return [...refused];
}

function writeNote(refused: readonly string[], policy: SandboxPolicy): string {
  const paths = refused.slice(0, 3).join(", ");
  const where =
    policy.mode === "read-only"
      ? "nothing is writable"
      : `only ${policy.writable.join(", ")} ${policy.writable.length === 1 ? "is" : "are"} writable (not ${protectedNames(policy)})`;
  return `[sandbox: the command ran in the OS sandbox (${policy.mode}), which refused writing ${paths}: ${where}. This is the sandbox, not a bug in the command; do not retry the same write.]`;
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
