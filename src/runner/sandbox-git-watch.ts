// After each sandboxed command that may write the workspace: the nested repositories host git
// would run git in (the gitlinks of the workspace's index, and theirs, whose checkout holds a
// `.git`) whose config makes git run a program (core.fsmonitor, filter drivers, …) or whose
// hooks directory holds a hook. The sandbox cannot keep the index read-only (`git add` writes
// it), so a command can add `sub/.git` with such a config and a gitlink for `sub`; this reports
// it instead. Cheap: one stat of the index and a few stats per nested repository each time; the
// index is parsed and configs read only when their stats changed. Called by runCommand.
import type { Stats } from "node:fs";
import { lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { terminalSafeLine } from "./escape-controls.ts";
import type { ConfigEntry } from "./git-config-scan.ts";
import { configValue, readGitConfig, runningEntries } from "./git-config-scan.ts";
import { indexGitlinks } from "./git-index-gitlinks.ts";
import { commonDirOf, gitFileTarget } from "./sandbox-git-paths.ts";
import type { SandboxPolicy } from "./sandbox-policy.ts";

/** Nested repositories inside nested repositories: deeper ones are not looked at. */
const MAX_DEPTH = 3;

/** What was found in one repository, by its fingerprint (the stats of what git reads there). */
interface Seen {
  fingerprint: string;
  gitlinks: string[];
  findings: string[];
}

interface WorkspaceState {
  repos: Map<string, Seen>;
  /** The findings reported and still there (`path: finding`): each is reported once. */
  reported: Set<string>;
}

const states = new Map<string, WorkspaceState>();

/**
 * The findings in the workspace of `policy` not reported before (or gone since, and back):
 * `sub: core.fsmonitor=./x`.
 * Empty for a policy whose commands cannot write the workspace, or a workspace without `.git`.
 */
export function nestedRepoWarnings(policy: SandboxPolicy): string[] {
  if (policy.mode !== "workspace-write" || policy.tmp !== "private") return [];
  const root = rootGitDir(policy.workspace);
  if (!root) return [];
  let state = states.get(policy.workspace);
  if (!state) {
    state = { repos: new Map(), reported: new Set() };
    states.set(policy.workspace, state);
  }
  const found = new Map<string, Seen>();
  visit(policy.workspace, "", root, 0, state, found);
  state.repos = found;
  // The path, as the hooks' names and the values, is the command's choice: shown escaped.
  const current = [...found].flatMap(([path, seen]) =>
    seen.findings.map((finding) => `${terminalSafeLine(path)}: ${finding}`),
  );
  const fresh = current.filter((line) => !state.reported.has(line));
  // One that went away and comes back is reported again.
  state.reported = new Set(current);
  return fresh;
}

/** The note for the model (and the user): what was found, why it matters, what to do. */
export function nestedRepoNote(warnings: readonly string[]): string {
  const list = warnings.map((line) => `  ${line}`).join("\n");
  return `[sandbox: warning: a nested git repository in the workspace is linked from the index (a gitlink) and its git config or hooks run a program; git run later outside the sandbox (\`git status\` at the top) runs it with the user's full rights:\n${list}\nThe user is told. Do not leave it there: remove it (\`git rm --cached PATH\` and its \`.git\`) unless the user asked for it.]`;
}

/** One repository (the workspace's, "", or a nested one at `path`) and the ones it links. */
function visit(
  workspace: string,
  path: string,
  gitdir: string,
  depth: number,
  state: WorkspaceState,
  found: Map<string, Seen>,
): void {
  const common = commonDirOf(gitdir) ?? gitdir;
  const fingerprint = fingerprintOf(workspace, path, gitdir, common);
  let seen = state.repos.get(path);
  if (!seen || seen.fingerprint !== fingerprint) {
    seen = { fingerprint, gitlinks: gitlinksOf(gitdir, common), findings: [] };
    // The workspace's own config and hooks are protected; only nested ones are looked at.
    if (path !== "") seen.findings = findingsOf(gitdir, common);
  }
  found.set(path, seen);
  if (depth >= MAX_DEPTH) return;
  for (const link of seen.gitlinks) {
    const nested = path === "" ? link : `${path}/${link}`;
    const dir = nestedGitDir(join(workspace, nested));
    if (dir && !found.has(nested)) visit(workspace, nested, dir, depth + 1, state, found);
  }
}

function gitlinksOf(gitdir: string, common: string): string[] {
  const format = configValue(readGitConfig(join(common, "config")), "extensions.objectformat");
  return indexGitlinks(join(gitdir, "index"), format?.toLowerCase() === "sha256" ? 32 : 20);
}

/** What in a nested repository makes git run a program: config entries, then hooks. */
function findingsOf(gitdir: string, common: string): string[] {
  const entries: ConfigEntry[] = [
    ...readGitConfig(join(common, "config")),
    ...readGitConfig(join(gitdir, "config.worktree")),
  ];
  const out = runningEntries(entries).map(({ name, value }) => `${name}=${shown(value)}`);
  const hooks = hookNames(join(common, "hooks"));
  if (hooks.length > 0) out.push(`hooks ${hooks.map(terminalSafeLine).join(", ")}`);
  return out;
}

/** The stats of what git reads in a repository, as one string: it changes when any does. */
function fingerprintOf(workspace: string, path: string, gitdir: string, common: string): string {
  const parts = [
    statKey(join(gitdir, "index")),
    statKey(join(gitdir, "commondir")),
    statKey(join(common, "config")),
    statKey(join(gitdir, "config.worktree")),
  ];
  if (path !== "") {
    const dotGit = join(workspace, path, ".git");
    parts.push(statKey(dotGit), gitFileTarget(dotGit) ?? "");
    const hooks = join(common, "hooks");
    parts.push(statKey(hooks), ...hookNames(hooks).map((name) => statKey(join(hooks, name))));
  }
  return parts.join("|");
}

/** The workspace's gitdir (`.git`, or where a `.git` file points), or null. */
function rootGitDir(workspace: string): string | null {
  return nestedGitDir(workspace);
}

/** The gitdir of the checkout at `dir`: its `.git` directory, or where its `.git` file points. */
function nestedGitDir(dir: string): string | null {
  const dotGit = join(dir, ".git");
  const stat = lstatOrNull(dotGit);
  if (!stat) return null;
  // A symlink is followed, as git follows it, to a `gitdir:` file or a directory.
  if (stat.isFile() || (stat.isSymbolicLink() && isFile(dotGit))) return gitFileTarget(dotGit);
  try {
    return realpathSync(dotGit);
  } catch {
    return null;
  }
}

/** The hooks git would run: the directory's entries but the `.sample` ones. */
function hookNames(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => !name.endsWith(".sample"))
      .sort();
  } catch {
    return [];
  }
}

function statKey(path: string): string {
  const stat = lstatOrNull(path);
  if (!stat) return "-";
  return `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.mode}`;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** A config value as shown in a note: one line, at most 80 characters. */
function shown(value: string): string {
  const line = terminalSafeLine(value.replace(/\s+/g, " "));
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
