// After a sandboxed command: the run-on-host files and folders (sandbox-protect.ts's one list,
// RUN_ON_HOST_FILES and RUN_ON_HOST_DIRS) it created or changed below the workspace's top
// (`sub/.envrc`, `packages/x/.npmrc`, `a/b/.vscode/`) and in the other writable roots, which
// no mount can cover at every depth. One created is renamed aside to `<name>.codewhale-refused`;
// one changed is put back from the copy taken before (run-file-copy.ts), the command's version
// renamed aside, or only renamed aside when no copy was kept. Nothing is followed: a link is
// renamed as a link, and nothing is written through one.
// Cost: each writable root's folders are listed once per process, after its first sandboxed
// command ends (at most MAX_DIRS, shallowest first: nothing is copied before that command, so
// an entry it changed is only renamed aside); after each later command every listed folder is
// lstat'ed, and only those whose stat changed, or that changed since the command started, are
// listed again. What a command did is told by the change time (ctime, which no command can set):
// at or after the file system's clock when the earliest sandboxed command of this process still
// running started. The write and edit tools note what they wrote (noteHostWrite), so a file they
// wrote just before a command is not taken for the command's.
// sandbox-command-guard.ts calls watchRunFiles before each sandboxed command and settle after it
// (runCommand's, background ones too, and those run in an ACP editor's terminal).
import {
  type BigIntStats,
  type Dirent,
  lstatSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { isInside } from "./path-kind.ts";
import { copyEntry, type EntryCopy, restoreEntry } from "./run-file-copy.ts";
import type { SandboxPolicy } from "./sandbox-policy.ts";
import { RUN_ON_HOST_DIRS, RUN_ON_HOST_FILES } from "./sandbox-protect.ts";
import { SET_ASIDE_SUFFIX } from "./sandbox-run-files.ts";
import { onShutdown } from "./shutdown.ts";

/** Past this many folders in one root, the deeper rest is not watched (docs/sandbox.md). */
const MAX_DIRS = 10_000;
/** Entries of one run-on-host folder looked at for a change. */
const MAX_DIR_ENTRIES = 2_000;
/** Paths the file tools wrote, kept until a command's watch takes them (at most this many). */
const MAX_NOTED = 1_000;
/** On a file system that keeps whole seconds (its times' nanoseconds all zero), two seconds. */
const COARSE_MARGIN_NS = 2_000_000_000n;

const RUN_ON_HOST: ReadonlySet<string> = new Set([...RUN_ON_HOST_FILES, ...RUN_ON_HOST_DIRS]);
/**
 * Folders not entered: git's metadata (sandbox-git-paths.ts and sandbox-git-watch.ts look
 * there) and `node_modules`, writable on purpose (installs write it; no tool runs a
 * run-on-host file from inside it: docs/sandbox.md).
 */
const SKIPPED: ReadonlySet<string> = new Set([".git", "node_modules"]);

/** A run-on-host entry found below a root, as it was last seen outside any command. */
interface Known {
  /** lstat of the entry (its whole tree for a folder; its target's too for a link). */
  sig: string;
  copy: EntryCopy | null;
}

/** One writable root's folders and run-on-host entries. */
interface RootIndex {
  root: string;
  /** False for the workspace: its top level is sandbox-protect.ts's. */
  top: boolean;
  /** Folders listed, relative to the root ("" is the root), with their lstat when listed. */
  dirs: Map<string, FolderStat>;
  known: Map<string, Known>;
  /** Whether the root's file times have whole seconds only. */
  coarse: boolean;
  /** Folders below it that are other roots (the workspace in a writable home): theirs. */
  others: ReadonlySet<string>;
}

/** A listed folder: its path, and the inode and change time it had when listed. */
interface FolderStat {
  path: string;
  ino: bigint;
  ctime: bigint;
}

/** What the command left: run-on-host entries renamed aside, and those put back as they were. */
interface RunFilesFound {
  setAside: string[];
  restored: string[];
}

interface RunFilesWatch {
  /** Looks for what the command created or changed, and undoes it; call once, as it ends. */
  settle(): RunFilesFound;
}

const indexes = new Map<string, RootIndex>();
/** What the write and edit tools wrote since the last command started (real paths). */
const noted = new Set<string>();
/** The start of each watched command of this process now running. */
const running = new Set<{ start: bigint }>();

/** The watch over `policy`'s writable roots for one command, or null when it writes none. */
export function watchRunFiles(policy: SandboxPolicy): RunFilesWatch | null {
  if (policy.mode !== "workspace-write" || policy.tmp !== "private") return null;
  const all = rootsOf(policy);
  const roots = all.map((root) => indexOf(root, root !== policy.workspace, all));
  for (const index of roots) {
    takeNoted(index);
    refreshCopies(index, earliestStart());
  }
  const own = { start: fileClock() };
  running.add(own);
  let settled = false;
  return {
    settle() {
      if (settled) return { setAside: [], restored: [] };
      settled = true;
      const since = earliestStart() ?? own.start;
      running.delete(own);
      const found: RunFilesFound = { setAside: [], restored: [] };
      for (const index of roots) {
        const shown = (rel: string) => shownPath(policy.workspace, join(index.root, rel));
        const mine = check(index, since - (index.coarse ? COARSE_MARGIN_NS : 0n));
        found.setAside.push(...mine.setAside.map(shown));
        found.restored.push(...mine.restored.map(shown));
      }
      return found;
    },
  };
}

/** The workspace and the other writable roots, none inside another (the workspace's first). */
function rootsOf(policy: SandboxPolicy): string[] {
  const all = [policy.workspace, ...policy.writable.filter((root) => root !== policy.workspace)];
  return all.filter((root, i) => !all.some((other, j) => j < i && isInsideOrAt(other, root)));
}

function isInsideOrAt(root: string, path: string): boolean {
  return root === path || isInside(root, path);
}

/** The index of `root`; its folders are listed after the first command (check). */
function indexOf(root: string, top: boolean, roots: readonly string[]): RootIndex {
  const key = `${top ? "root" : "workspace"}:${root}`;
  const known = indexes.get(key);
  if (known) return known;
  const stat = lstatBig(root);
  const coarse = stat !== null && stat.ctimeNs % 1_000_000_000n === 0n;
  const others = new Set(roots.filter((r) => isInside(root, r)).map((r) => relative(root, r)));
  const index: RootIndex = { root, top, dirs: new Map(), known: new Map(), coarse, others };
  indexes.set(key, index);
  return index;
}

/**
 * Lists one folder: records its stat, takes each run-on-host entry not known yet (the
 * command's, set aside into `found`, when it changed at or after `since` or lies in a folder the
 * command made; else a copy is kept), and returns the subfolders not listed yet.
 */
function list(
  index: RootIndex,
  rel: string,
  since: bigint,
  fresh: boolean,
  found: string[],
): string[] {
  const path = join(index.root, rel);
  // Past the cap, no new folder is watched (docs/sandbox.md).
  if (index.dirs.size >= MAX_DIRS && !index.dirs.has(rel)) return [];
  const stat = lstatBig(path);
  if (!stat?.isDirectory()) return [];
  index.dirs.set(rel, { path, ino: stat.ino, ctime: stat.ctimeNs });
  let names: Dirent[];
  try {
    names = readdirSync(path, { withFileTypes: true });
  } catch {
    return [];
  }
  const subfolders: string[] = [];
  for (const entry of names) {
    const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (RUN_ON_HOST.has(entry.name)) {
      if ((rel !== "" || index.top) && !index.known.has(child))
        take(index, child, since, fresh, found);
    } else if (entry.isDirectory() && !SKIPPED.has(entry.name) && !index.dirs.has(child)) {
      if (!index.others.has(child)) subfolders.push(child);
    }
  }
  return subfolders;
}

/** A run-on-host entry first seen: the command's (set aside), or the host's (copied). */
function take(index: RootIndex, rel: string, since: bigint, fresh: boolean, found: string[]) {
  const path = join(index.root, rel);
  const state = stateOf(path);
  if (!state) return;
  const copy = fresh || state.changed >= since ? null : copyEntry(path);
  // Changed while it was copied: by a command still running when that was after `since`.
  const now = copy ? stateOf(path) : state;
  if (copy && now?.sig === state.sig) index.known.set(rel, { sig: state.sig, copy });
  else if (now && (fresh || now.changed >= since)) {
    setAside(index, rel);
    found.push(rel);
  }
}

/**
 * A file the write or edit tool wrote (the user allowed it): the run-on-host entry it lies in,
 * below `root`, is the host's, copied as it is now.
 */
export function noteHostWrite(path: string): void {
  if (noted.size < MAX_NOTED) noted.add(path);
}

function takeNoted(index: RootIndex): void {
  for (const path of noted) {
    if (!isInside(index.root, path)) continue;
    noted.delete(path);
    const parts = relative(index.root, path).split("/");
    const at = parts.findIndex((part, i) => RUN_ON_HOST.has(part) && (i > 0 || index.top));
    if (at < 0) continue;
    const rel = parts.slice(0, at + 1).join("/");
    const state = stateOf(join(index.root, rel));
    if (state) index.known.set(rel, { sig: state.sig, copy: copyEntry(join(index.root, rel)) });
  }
}

/** Before a command: a copy of each known entry the host changed since it was taken. */
function refreshCopies(index: RootIndex, since: bigint | null): void {
  for (const [rel, known] of index.known) {
    const state = stateOf(join(index.root, rel));
    if (!state) index.known.delete(rel);
    else if (state.sig !== known.sig && (since === null || state.changed < since)) {
      index.known.set(rel, { sig: state.sig, copy: copyEntry(join(index.root, rel)) });
    }
  }
}

/** After a command: what it created or changed since `since`, undone. */
function check(index: RootIndex, since: bigint): RunFilesFound {
  const setAsideNow: string[] = [];
  const restored: string[] = [];
  const gone = new Set<string>();
  const again: string[] = [];
  // A folder's change time moves with every entry added, removed or renamed in it.
  for (const [rel, listed] of index.dirs) {
    const stat = below(gone, rel) ? null : lstatBig(listed.path);
    if (!stat?.isDirectory()) {
      gone.add(rel);
      index.dirs.delete(rel);
    } else if (stat.ino !== listed.ino || stat.ctimeNs !== listed.ctime || stat.ctimeNs >= since)
      again.push(rel);
  }
  // Nothing listed yet (the root's first command, or it was missing): the whole tree, at
  // most MAX_DIRS folders; what changed since the start is the command's (no copy: set aside).
  if (index.dirs.size === 0) again.push("");
  const queue: [string, boolean][] = again.map((rel) => [rel, false]);
  for (let at = 0; at < queue.length; at++) {
    const [folder, fresh] = queue[at] ?? ["", false];
    for (const child of list(index, folder, since, fresh, setAsideNow)) {
      // A folder the command made or moved in: all it holds is the command's.
      const made = fresh || (lstatBig(join(index.root, child))?.ctimeNs ?? 0n) >= since;
      queue.push([child, made]);
    }
  }
  for (const [rel, known] of index.known) {
    const state = below(gone, rel) ? null : stateOf(join(index.root, rel));
    if (!state) index.known.delete(rel);
    else if (state.sig !== known.sig && state.changed >= since) {
      if (undo(index, rel, known)) restored.push(rel);
      else setAsideNow.push(rel);
    } else if (state.sig !== known.sig) {
      index.known.set(rel, { sig: state.sig, copy: copyEntry(join(index.root, rel)) });
    }
  }
  return { setAside: setAsideNow, restored };
}

/** Renames the command's version aside and puts the copy back; false when only renamed. */
function undo(index: RootIndex, rel: string, known: Known): boolean {
  const path = join(index.root, rel);
  if (!setAside(index, rel)) return false;
  // A link is not put back when its target changed: it would lead to the changed file again.
  if (!known.copy || known.copy.kind === "link") {
    index.known.delete(rel);
    return false;
  }
  try {
    restoreEntry(path, known.copy);
  } catch {
    index.known.delete(rel);
    return false;
  }
  const state = stateOf(path);
  if (state) index.known.set(rel, { sig: state.sig, copy: known.copy });
  return true;
}

/** Renames one entry aside (never followed), when every folder above it is a real folder. */
function setAside(index: RootIndex, rel: string): boolean {
  const parts = rel.split("/");
  for (let depth = 1; depth < parts.length; depth++) {
    const folder = join(index.root, ...parts.slice(0, depth));
    if (!lstatBig(folder)?.isDirectory()) return false;
  }
  const path = join(index.root, rel);
  try {
    renameSync(path, `${path}${SET_ASIDE_SUFFIX}`);
    return true;
  } catch {
    return false; // a folder where an older one is: named all the same, left for the user
  }
}

/**
 * An entry's signature and its latest change time: its own lstat; a folder's whole tree (up to
 * MAX_DIR_ENTRIES); a link's target too (what the link leads to runs, wherever it is).
 */
function stateOf(path: string): { sig: string; changed: bigint } | null {
  const stat = lstatBig(path);
  if (!stat) return null;
  const state = { sig: signature(stat), changed: stat.ctimeNs };
  if (stat.isSymbolicLink()) {
    try {
      const target = statSync(path, { bigint: true });
      state.sig += `>${signature(target)}`;
      if (target.ctimeNs > state.changed) state.changed = target.ctimeNs;
    } catch {
      // Dangling: only the link itself.
    }
  } else if (stat.isDirectory()) addTree(path, state, { left: MAX_DIR_ENTRIES });
  return state;
}

function addTree(
  dir: string,
  state: { sig: string; changed: bigint },
  budget: { left: number },
): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    if (--budget.left < 0) return;
    const stat = lstatBig(join(dir, name));
    if (!stat) continue;
    state.sig += `|${name}:${signature(stat)}`;
    if (stat.ctimeNs > state.changed) state.changed = stat.ctimeNs;
    if (stat.isDirectory()) addTree(join(dir, name), state, budget);
  }
}

/** Whether `rel` lies below a folder in `gone`. */
function below(gone: ReadonlySet<string>, rel: string): boolean {
  if (gone.size === 0) return false;
  for (let cut = rel.lastIndexOf("/"); cut > 0; cut = rel.lastIndexOf("/", cut - 1)) {
    if (gone.has(rel.slice(0, cut))) return true;
  }
  return gone.has("") && rel !== "";
}

function signature(stat: BigIntStats): string {
  return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.mode}`;
}

function lstatBig(path: string): BigIntStats | null {
  try {
    return lstatSync(path, { bigint: true, throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

function earliestStart(): bigint | null {
  let earliest: bigint | null = null;
  for (const { start } of running) if (earliest === null || start < earliest) earliest = start;
  return earliest;
}

let clockFile: string | null = null;

/**
 * The file system's clock now, as it stamps a change (the change time of a file written in a
 * directory of this process's own): a file the command changes later has a change time not
 * before it.
 */
function fileClock(): bigint {
  try {
    if (!clockFile) {
      const dir = mkdtempSync(join(tmpdir(), `codewhale-clock-${process.pid}-`));
      clockFile = join(dir, "clock");
      onShutdown(() => {
        clockFile = null;
        rmSync(dir, { recursive: true, force: true });
      });
    }
    writeFileSync(clockFile, "");
    return lstatSync(clockFile, { bigint: true }).ctimeNs;
  } catch {
    // No temp directory: the wall clock, a tick earlier (file times lag it by up to one).
    return (BigInt(Date.now()) - 20n) * 1_000_000n;
  }
}

/** A path as the model reads it: relative to the workspace when inside it. */
function shownPath(workspace: string, path: string): string {
  return isInside(workspace, path) ? relative(workspace, path) : path;
}
