// The OS sandbox policy of a command, as plain data, and the bubblewrap argument list it becomes.
// The config layer's `[sandbox]` section plus the session's paths (workspace, spill directory,
// HOME, codewhale home) resolve into a SandboxPolicy (resolveSandboxPolicy); run-command.ts
// prefixes a command with `bwrap` and bwrapArgs(policy) when a spec carries one. See docs/sandbox.md.
import { createHash } from "node:crypto";
import { existsSync, lstatSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Protection } from "./sandbox-protect.ts";
import { RUN_ON_HOST_DIRS, RUN_ON_HOST_FILES, workspaceProtection } from "./sandbox-protect.ts";

const SANDBOX_MODES = ["workspace-write", "read-only", "off"] as const;
type SandboxMode = (typeof SANDBOX_MODES)[number];
type SandboxNetwork = "off" | "on";
/** `[sandbox.network]` as a table: only these hosts, through the proxy (sandbox-proxy.ts). */
interface SandboxNetworkAllow {
  allow: readonly string[];
}
type SandboxFallback = "ask" | "off" | "refuse";

/** The `[sandbox]` section as the config layer resolves it (structural, to stay decoupled). */
interface SandboxConfigSection {
  mode: SandboxMode;
  writable: readonly string[];
  deny_read: readonly string[];
  network: SandboxNetwork | SandboxNetworkAllow;
  fallback: SandboxFallback;
  hooks?: "inside" | "outside";
  mcp_servers?: "inside" | "outside";
}

/** The paths a policy is resolved against; all absolute. */
interface SandboxPaths {
  workspace: string;
  home: string;
  /** codewhale's home (`$CODEWHALE_HOME` or `~/.codewhale`): its keys and sessions are hidden. */
  codewhaleHome: string;
  /** The session's temp (spill) directory, writable in `workspace-write`. */
  tempDir?: string;
  /** Where session logs are (`session_dir`, `--session-dir`): hidden as `sessions/` is. */
  sessionsDir?: string;
  /**
   * Workspace files that configured commands run (hooks, external tools, MCP servers: the
   * permission layer's run targets): read-only, so a command cannot change what they run later.
   */
  runFiles?: readonly string[];
}

/** One resolved policy: what a command may write, may not read, and whether it has a network. */
export interface SandboxPolicy {
  mode: Exclude<SandboxMode, "off">;
  /** `off`: the command's own network namespace; `on`: the host's network. */
  network: SandboxNetwork;
  /**
   * With network `off`, the hosts reachable through the proxy (`[sandbox.network] allow`),
   * exact names or `*.domain`; empty: none.
   */
  allow: string[];
  /** Bound read-write (workspace-write only); one missing when the command starts is skipped. */
  writable: string[];
  /**
   * Bound read-only over a writable root (the workspace's hooks, config, agent settings, the
   * files configured commands run), each folder on the way bound over itself.
   */
  readOnly: string[];
  /**
   * Hidden: an empty tmpfs over a directory, /dev/null over a file. codewhale's own directories
   * are listed even when missing (each command hides those that exist when it starts).
   */
  denyRead: string[];
  /** Where the command starts (the workspace), bound read-only in `read-only` mode. */
  workspace: string;
  /**
   * `/tmp`: an empty one of its own (`private`, commands), or the host's, writable (`host`:
   * hooks and MCP servers, which the user configured, find their scripts and sockets there).
   */
  tmp: "private" | "host";
  /** First 16 hex digits of the SHA-256 of the fields above, for the receipt. */
  hash: string;
}

/** Inside the workspace, never writable: what runs later with the user's full rights. */
const PROTECTED_IN_WORKSPACE = [
  ".git/hooks",
  ".git/config",
  ".codewhale",
  ".claude",
  ...RUN_ON_HOST_DIRS,
  ...RUN_ON_HOST_FILES,
] as const;

/**
 * Hidden by default, relative to HOME: keys, cloud and registry credentials, and other coding
 * agents' and CLIs' stored logins (a command that needs one runs outside the sandbox).
 */
const DEFAULT_DENY_READ_IN_HOME = [
  ".ssh",
  ".aws",
  ".config/gcloud",
  ".gnupg",
  ".netrc",
  ".git-credentials",
  ".docker/config.json",
  ".kube/config",
  ".config/gh/hosts.yml",
  ".claude.json",
  ".claude/.credentials.json",
  ".codex/auth.json",
] as const;
/**
 * Hidden by default, relative to codewhale's home: its keys, sessions, checkpoint stores and
 * MCP OAuth tokens, the config files (MCP servers' env and header secrets), the search index
 * (the sessions' text) and the prompt history.
 */
const DEFAULT_DENY_READ_IN_CODEWHALE_HOME = [
  "keys",
  "sessions",
  "mcp-auth",
  "checkpoints",
  "config.toml",
  "codewhale.toml",
  "index",
  "history.jsonl",
] as const;

/** The policy of `section`, or null when its mode is `off`; `tmp` is `private` unless given. */
export function resolveSandboxPolicy(
  section: SandboxConfigSection,
  paths: SandboxPaths,
  tmp: SandboxPolicy["tmp"] = "private",
): SandboxPolicy | null {
  if (section.mode === "off") return null;
  const workspace = realOrSelf(paths.workspace);
  const writable =
    section.mode === "workspace-write"
      ? [
          ...existing([workspace, ...section.writable.map((p) => expand(p, paths))]),
          // Created on first spill, maybe after the policy: bound if it exists by then.
          ...(paths.tempDir ? [resolve(paths.tempDir)] : []),
        ]
      : [];
  const readOnly = [
    ...writable.flatMap((root) => existing(PROTECTED_IN_WORKSPACE.map((rel) => join(root, rel)))),
    ...existing(paths.runFiles ?? []).filter((path) => rootOf(path, writable) !== null),
  ].filter((path, i, all) => all.indexOf(path) === i);
  // codewhale's own directories are hidden even before they exist: a session creates its
  // checkpoint store (and a login its keys) after the policy is resolved.
  const ownHome = realOrSelf(paths.codewhaleHome);
  const denyRead = [
    ...existing([
      ...DEFAULT_DENY_READ_IN_HOME.map((rel) => join(paths.home, rel)),
      ...section.deny_read.map((p) => expand(p, paths)),
    ]),
    ...DEFAULT_DENY_READ_IN_CODEWHALE_HOME.map((rel) => realOrSelf(join(ownHome, rel))),
    ...sessionsDirHidden(paths.sessionsDir, workspace),
  ].filter((path, i, all) => all.indexOf(path) === i);
  const network = typeof section.network === "string" ? section.network : "off";
  const allow = typeof section.network === "string" ? [] : [...new Set(section.network.allow)];
  const body = {
    mode: section.mode,
    network,
    allow,
    writable,
    readOnly,
    denyRead,
    workspace,
    tmp,
  };
  return { ...body, hash: hashOf(body) };
}

/** Options the availability probe decides (sandbox-probe.ts). */
export interface BwrapHostOptions {
  /** `--unshare-user` works on this host (unprivileged user namespaces). */
  unshareUser: boolean;
}

/**
 * The bwrap arguments (before `--` and the command) that enforce `policy`, starting in `cwd`;
 * `protection`: the workspace's protected paths as read when the command's mount points were
 * made (holdPlaceholders), else read now.
 */
export function bwrapArgs(
  policy: SandboxPolicy,
  host: BwrapHostOptions,
  cwd: string = policy.workspace,
  protection: Protection = workspaceProtection(policy),
): string[] {
  const args = ["--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc"];
  if (host.unshareUser) args.push("--unshare-user");
  if (policy.network === "off") args.push("--unshare-net");
  // The whole file system read-only, then a fresh /dev, /proc and a private /tmp over it.
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  if (policy.tmp === "host") args.push("--bind", "/tmp", "/tmp");
  else args.push("--tmpfs", "/tmp");
  // Roots under /tmp would be hidden by the private /tmp: each is bound again after it.
  if (policy.mode === "read-only") args.push("--ro-bind", policy.workspace, policy.workspace);
  // Bound only where it exists now: a spill directory under a TMPDIR that cannot hold one
  // (ENOTDIR, which bwrap's --bind-try does not pass over) must not fail every command.
  for (const root of policy.writable) if (existsSync(root)) args.push("--bind", root, root);
  // The workspace's protected paths as they are now, missing ones included (sandbox-protect.ts);
  // then those of the other writable roots, and symlinked ones, as the session found them.
  args.push(...protection.args);
  const pinned = new Set<string>();
  for (const path of policy.readOnly) {
    if (protection.covered.includes(path)) continue;
    // Each folder between its root and it is bound over itself, so it cannot be renamed away
    // and rebuilt without the file (`mv scripts s2 && mkdir scripts`).
    for (const folder of foldersBetween(rootOf(path, policy.writable), path)) {
      if (!pinned.has(folder) && isDirectory(folder)) args.push("--bind", folder, folder);
      pinned.add(folder);
    }
    args.push("--ro-bind", path, path);
  }
  for (const path of policy.denyRead) {
    // One of codewhale's own that does not exist yet has nothing to hide (nor a mount point).
    if (!existsSync(path)) continue;
    if (isDirectory(path)) args.push(...protection.mountEmpty(path));
    else args.push("--ro-bind", "/dev/null", path);
  }
  // The host's TMPDIR may lie under the hidden /tmp: temp files go to the private one.
  if (policy.tmp === "private") args.push("--setenv", "TMPDIR", "/tmp");
  args.push("--chdir", cwd);
  return args;
}

/** The writable root `path` lies in (the innermost), or null. */
function rootOf(path: string, roots: readonly string[]): string | null {
  const inside = roots.filter((root) => {
    const rel = relative(root, path);
    return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  });
  return inside.sort((a, b) => b.length - a.length)[0] ?? null;
}

/** The folders strictly between `root` and `path`, outermost first; none without a root. */
function foldersBetween(root: string | null, path: string): string[] {
  if (root === null) return [];
  const parts = relative(root, path).split(sep).slice(0, -1);
  return parts.map((_, i) => join(root, ...parts.slice(0, i + 1)));
}

/** A sessions directory elsewhere than the default, unless it holds the workspace itself. */
function sessionsDirHidden(dir: string | undefined, workspace: string): string[] {
  if (dir === undefined) return [];
  const real = realOrSelf(dir);
  const rel = relative(real, workspace);
  const holdsWorkspace = rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
  return holdsWorkspace ? [] : [real];
}

/** A one-line summary for notices and receipts: `workspace-write, network off`. */
export function describePolicy(policy: SandboxPolicy | null): string {
  if (!policy) return "no sandbox";
  if (policy.network === "off" && policy.allow.length > 0) {
    return `${policy.mode}, network only to ${policy.allow.join(", ")} (through the proxy)`;
  }
  return `${policy.mode}, network ${policy.network}`;
}

function hashOf(body: Omit<SandboxPolicy, "hash">): string {
  // An empty allow list and a private /tmp are left out: a policy without them keeps its hash.
  const { allow, tmp, ...rest } = body;
  const hashed = {
    ...rest,
    ...(allow.length > 0 ? { allow } : {}),
    ...(tmp === "host" ? { tmp } : {}),
  };
  return createHash("sha256").update(JSON.stringify(hashed)).digest("hex").slice(0, 16);
}

function expand(path: string, paths: SandboxPaths): string {
  if (path === "~") return paths.home;
  if (path.startsWith("~/")) return join(paths.home, path.slice(2));
  return isAbsolute(path) ? path : resolve(paths.workspace, path);
}

/** The real paths of those that exist (a bind needs a source), without duplicates. */
function existing(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const path of paths) {
    const real = realOrNull(path);
    if (real !== null && !out.includes(real)) out.push(real);
  }
  return out;
}

function realOrNull(path: string): string | null {
  try {
    lstatSync(path);
    return realpathSync(path);
  } catch {
    return null;
  }
}

function realOrSelf(path: string): string {
  return realOrNull(path) ?? resolve(path);
}

function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
