// A session's checkpoint store: a shadow git repository at $CODEWHALE_HOME/checkpoints/<id>/git
// (0700) whose index caches the workspace's stat data, so finding what changed costs one `git
// ls-files` (or nothing, for the files a call names); codewhale stores what changed and writes
// the trees itself, and git's index takes the stored files in batches. Never touches the
// user's .git (docs/rfc, rewind.md).
import {
  type BigIntStats as BigStats,
  constants,
  lstatSync,
  mkdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { open } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type GitPlace, makeRepository, runGit } from "./git.ts";
import { EMPTY_TREE, readBlob, type TreeEntry, TreeReader, writeBlob } from "./objects.ts";
import { storeFile, writeTreeWith } from "./tree-write.ts";

/** Limits of what one capture stores (docs/rewind.md, "Limits"). */
interface CaptureLimits {
  /** A larger file is noted (`too_large`), not stored. */
  maxFileBytes: number;
  /** Once one capture has stored this much, the rest is noted (`checkpoint_limit`). */
  maxCaptureBytes: number;
}

const DEFAULT_LIMITS: CaptureLimits = {
  maxFileBytes: 10 * 1024 * 1024,
  maxCaptureBytes: 200 * 1024 * 1024,
};

export interface CapturedFile {
  path: string;
  /** Blob id; null when the file is gone. */
  hash: string | null;
  mode?: number;
  bytes?: number;
  binary?: true;
}

interface SkippedFile {
  path: string;
  reason: "too_large" | "checkpoint_limit" | "nested_repository" | "not_a_file" | "unreadable";
  bytes?: number;
}

/** The state a capture found, and how it differs from the store's last recorded state. */
export interface Capture {
  tree: string;
  /** The blob of exact permission bits, when any file is neither 0644 nor 0755. */
  modes?: string;
  /** Files changed since the last recorded state (all of them for the first capture: none). */
  files: CapturedFile[];
  skipped: SkippedFile[];
  fileCount: number;
  /** True when `tree` or `modes` differ from the last recorded state. */
  changed: boolean;
  /** Of `files`, those changed before the clock reading the capture was given. */
  outside?: string[];
}

/** What the log says the store held last: a tree, its modes blob, its file count. */
export interface RecordedState {
  tree: string;
  modes?: string | undefined;
  fileCount: number;
}

const DIRECTORY = 0o40000;
/** Past this many paths to look at, git stores them (in one process) rather than codewhale. */
const MANY = 1000;
/** Past this many files stored but not in git's index, the index is brought up to date. */
const INDEX_AFTER = 256;

/** The store's folder of a session. */
function storeDir(home: string, sessionId: string): string {
  return join(home, "checkpoints", sessionId);
}

/** What a capture learnt of a listed path: its size, kind and change time. */
interface Fact {
  bytes: number;
  /** Known when codewhale stored the file itself. */
  binary?: boolean;
  ctime: bigint;
  /** lstat's identity, size and times when it was stored, as one string. */
  stat: string;
}

/** A path's state as a capture stored it, before git's index holds it. */
interface Held {
  entry: TreeEntry | null;
  fact?: Fact;
  /** Still there as something git must not look at (Staged.forced). */
  forced: boolean;
  /** The lstat is trusted: the file last changed before the capture began to read it. */
  trusted: boolean;
}

/** How a capture's listed paths were sorted. */
interface Staged {
  /** The new entry of each path whose entry changed (null: removed). */
  changes: Map<string, TreeEntry | null>;
  /** Of the removed, those still there as something git must not look at (a folder, a path below a symlink). */
  forced: string[];
  skipped: SkippedFile[];
  facts: Map<string, Fact>;
  /** Whether codewhale stored the files itself (else git does, in the index update). */
  stored: boolean;
}

export class CheckpointStore {
  /** Exact permission bits of the index's files that are neither 0644 nor 0755, by path. */
  private modes = new Map<string, number>();
  private recorded: RecordedState | null = null;
  /** The state the store's index holds, when this process knows it (null: not known). */
  private indexed: RecordedState | null = null;
  /** Too-large files already noted, so each is noted once per size. */
  private readonly noted = new Map<string, number>();
  /** The index's update after the last capture, while it runs. */
  private indexing: Promise<void> | null = null;
  /** Paths that may have changed after the last capture stored them: looked at again. */
  private readonly unsure = new Set<string>();
  /**
   * What captures stored (or found gone) that git's index does not hold yet, by path: each
   * capture of the whole workspace looks at these again, and takes a file whose lstat is the
   * one stored (when that is trusted) as it was, without reading it.
   */
  private readonly unindexed = new Map<string, Held>();
  private readonly trees: TreeReader;

  private constructor(
    readonly dir: string,
    readonly place: GitPlace,
    private readonly limits: CaptureLimits,
  ) {
    this.trees = new TreeReader(place.gitDir);
  }

  /** Opens (making it on first use) the store of `sessionId` for the workspace `cwd`. */
  static async open(options: {
    home: string;
    sessionId: string;
    cwd: string;
    limits?: CaptureLimits;
  }): Promise<CheckpointStore> {
    const dir = storeDir(options.home, options.sessionId);
    mkdirSync(join(options.home, "checkpoints"), { recursive: true, mode: 0o700 });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const place = { gitDir: join(dir, "git"), workTree: options.cwd };
    const store = new CheckpointStore(dir, place, options.limits ?? DEFAULT_LIMITS);
    if (makeRepository(place.gitDir)) store.indexed = { tree: EMPTY_TREE, fileCount: 0 };
    return store;
  }

  /** Sets the state the log last recorded (on resume, after a rewind). */
  restoreRecorded(state: RecordedState | null): void {
    this.recorded = state;
    // Without a capture of its own, this process takes the index to be at the recorded state.
    if (this.indexed === null) this.modes = this.modesOf(state?.modes ?? undefined);
  }

  /** The last recorded state, or null before the first checkpoint. */
  lastRecorded(): RecordedState | null {
    return this.recorded;
  }

  /**
   * Whether the store's index is known to hold the last recorded state, so a capture finds
   * exactly what changed since it.
   */
  atRecorded(): boolean {
    const { recorded, indexed } = this;
    return (
      recorded !== null &&
      indexed !== null &&
      recorded.tree === indexed.tree &&
      recorded.modes === indexed.modes
    );
  }

  /**
   * The file system's clock now, as it stamps a file's change time (a file written in the
   * store): a workspace file changed later has a change time not before it.
   */
  clock(): bigint {
    const path = join(this.dir, "clock");
    writeFileSync(path, String(Date.now()));
    return statSync(path, { bigint: true }).mtimeNs;
  }

  /** The exact permission bits of a tree's files recorded in a modes blob. */
  modesOf(blob: string | undefined): Map<string, number> {
    return blob ? parseModes(readBlob(this.place.gitDir, blob)) : new Map();
  }

  /**
   * Captures the workspace: stores what changed since the index last saw it, writes the tree,
   * and lists the files that differ from the last recorded state. With `since` (a `clock()`
   * reading), names those of them changed before it (`outside`). With `named` (the
   * workspace-relative files a call says it changed), looks only at those when each is a file
   * the store holds (see `direct`), without a git process; else at the whole workspace. Does
   * not record it: call `markRecorded` once the event is in the log.
   */
  async capture(since?: bigint, named?: readonly string[]): Promise<Capture> {
    const known = this.indexed;
    const direct = named !== undefined && known !== null && this.direct(known.tree, named);
    let listed: string[];
    if (direct) listed = [...named];
    else {
      await this.indexing;
      this.indexing = null;
      listed = splitZ(
        await runGit(this.place, ["ls-files", "-z", "-m", "-d", "-o", "--exclude-standard"]),
      );
    }
    const again = direct ? [] : this.unindexed.keys();
    const paths = [...new Set([...listed, ...this.unsure, ...again])].sort();
    this.unsure.clear();
    const base = known?.tree ?? (await runGit(this.place, ["write-tree"])).toString().trim();
    const byGit = paths.length > MANY;
    // The file system's clock before any file is read: a file changed since is not trusted.
    const reading = paths.length > 0 && !byGit ? this.clock() : 0n;
    const staged = this.stage(paths, !byGit);
    const touched = [...staged.changes.keys()];
    let tree = base;
    if (byGit) {
      await this.indexing;
      await this.updateIndex(staged);
      for (const path of touched) this.unindexed.delete(path);
      tree = (await runGit(this.place, ["write-tree"])).toString().trim();
    } else if (touched.length > 0) {
      tree = writeTreeWith(this.place.gitDir, this.trees, base, staged.changes);
      this.hold(staged, reading);
    }
    const modes =
      this.modes.size > 0 ? writeBlob(this.place.gitDir, modesBlob(this.modes)) : undefined;
    const before = this.recorded;
    const changed = before === null || before.tree !== tree || before.modes !== modes;
    let files: CapturedFile[] = [];
    let fileCount: number;
    if (before !== null) {
      const fromIndex = known?.tree === before.tree && known.modes === before.modes;
      const candidates = fromIndex ? touched : await this.changedPaths(before.tree, tree);
      const diff = !changed
        ? null
        : await this.compare(before, { tree, modes }, candidates, staged.facts);
      files = diff?.files ?? [];
      fileCount = before.fileCount + (diff?.delta ?? 0);
    } else if (known !== null) {
      fileCount = known.fileCount + this.countDelta(known.tree, tree, touched);
    } else fileCount = await this.count(tree);
    this.indexed = { tree, modes, fileCount };
    const outside = since === undefined ? [] : this.changedBefore(files, staged.facts, since);
    return {
      tree,
      ...(modes ? { modes } : {}),
      files,
      skipped: staged.skipped,
      fileCount,
      changed,
      ...(outside.length > 0 ? { outside } : {}),
    };
  }

  /** The capture is in the log: it is now the state later captures are compared with. */
  markRecorded(capture: Pick<Capture, "tree" | "modes" | "fileCount">): void {
    this.recorded = { tree: capture.tree, modes: capture.modes, fileCount: capture.fileCount };
  }

  /**
   * Sorts the listed paths: a file to store is stored (a blob written by codewhale, exact
   * bytes), a file gone is dropped, the rest is noted. Returns the changes to the tree, what it
   * noted, and the facts of each stored file.
   */
  private stage(paths: string[], store: boolean): Staged {
    const changes = new Map<string, TreeEntry | null>();
    const forced: string[] = [];
    const folders = new Map<string, boolean>();
    const skipped: SkippedFile[] = [];
    const facts = new Map<string, Fact>();
    let stored = 0;
    for (const path of paths) {
      if (path.endsWith("/")) {
        if (this.noteOnce(path, -1))
          skipped.push({ path: path.slice(0, -1), reason: "nested_repository" });
        continue;
      }
      const entry = this.realFolders(path, folders) ? this.entry(path) : "beyond_link";
      if (entry === "gone" || entry === "beyond_link" || entry === "folder") {
        this.modes.delete(path);
        changes.set(path, null);
        if (entry !== "gone") forced.push(path);
      } else if (entry === "not_a_file") {
        if (this.noteOnce(path, -2)) skipped.push({ path, reason: entry });
      } else if (entry.size > this.limits.maxFileBytes) {
        if (this.noteOnce(path, entry.size))
          skipped.push({ path, reason: "too_large", bytes: entry.size });
      } else if (stored + entry.size > this.limits.maxCaptureBytes) {
        skipped.push({ path, reason: "checkpoint_limit", bytes: entry.size });
      } else if (store && this.heldAsIs(path, entry.stat)) {
        const held = this.unindexed.get(path);
        changes.set(path, held?.entry ?? null);
        if (held?.fact) facts.set(path, held.fact);
      } else {
        const file = store ? this.store(path, stored) : { mode: 0, hash: "" };
        if (file === null) continue;
        stored += entry.size;
        changes.set(path, { mode: file.mode, hash: file.hash });
        if (entry.perm === null || entry.perm === 0o644 || entry.perm === 0o755)
          this.modes.delete(path);
        else this.modes.set(path, entry.perm);
        facts.set(path, {
          bytes: entry.size,
          ...(store ? { binary: file.binary === true } : {}),
          ctime: entry.ctime,
          stat: entry.stat,
        });
      }
    }
    return { changes, forced, skipped, facts, stored: store };
  }

  /**
   * Whether a capture may look at `named` alone: each a regular file (or gone) that `tree`
   * holds as a regular file, below real folders. A file the store does not hold yet may be
   * ignored or in a nested repository, and one that is or was a symlink may have changed
   * another file: those need the whole workspace looked at.
   */
  private direct(tree: string, named: readonly string[]): boolean {
    const folders = new Map<string, boolean>();
    return named.every((path) => {
      const held = this.trees.entry(tree, path);
      if (held === null || (held.mode & 0o170000) !== 0o100000) return false;
      if (path.split("/").some((part) => part === ".git")) return false;
      if (!this.realFolders(path, folders)) return false;
      const entry = this.entry(path);
      return entry === "gone" || (typeof entry !== "string" && entry.perm !== null);
    });
  }

  /** Whether `path` is held unindexed with this very lstat, trusted: unchanged since stored. */
  private heldAsIs(path: string, stat: string): boolean {
    const held = this.unindexed.get(path);
    return held?.trusted === true && held.fact?.stat === stat;
  }

  /**
   * Notes what a capture stored as not in git's index yet; once more than INDEX_AFTER paths
   * wait, brings the index up to date off the capture's path (the next capture of the whole
   * workspace waits for it), after an update still running.
   */
  private hold(staged: Staged, reading: bigint): void {
    for (const [path, entry] of staged.changes) {
      const fact = staged.facts.get(path);
      const trusted = fact !== undefined && fact.ctime < reading;
      const forced = staged.forced.includes(path);
      this.unindexed.set(path, { entry, ...(fact ? { fact } : {}), forced, trusted });
    }
    if (this.unindexed.size <= INDEX_AFTER) return;
    const held = new Map(this.unindexed);
    const all: Staged = {
      changes: new Map([...held].map(([path, { entry }]) => [path, entry])),
      forced: [...held].filter(([, { forced }]) => forced).map(([path]) => path),
      skipped: [],
      facts: new Map(
        [...held].flatMap(([path, { fact }]) => (fact ? [[path, fact] as const] : [])),
      ),
      stored: true,
    };
    const previous = this.indexing;
    // Started once the capture is handed back, so that its spawn is not part of it.
    this.indexing = new Promise((next) => setImmediate(next))
      .then(() => previous)
      .then(() => this.updateIndex(all))
      .then(() => {
        for (const [path, state] of held)
          if (this.unindexed.get(path) === state) this.unindexed.delete(path);
      });
  }

  /** Stores one file's blob, or notes it to be looked at again (it changed meanwhile). */
  private store(path: string, stored: number) {
    const limit = Math.min(this.limits.maxFileBytes, this.limits.maxCaptureBytes - stored);
    const file = storeFile(this.place.gitDir, this.place.workTree, path, limit);
    if (file === null) this.unsure.add(path);
    return file;
  }

  /**
   * Brings the index's stat cache up to the capture, off the capture's path (the next capture
   * waits for it): git stores the same files again (finding their blobs there). A file that
   * changed meanwhile is looked at again by the next capture, whatever git found.
   */
  private async updateIndex(staged: Staged): Promise<void> {
    const update = [...staged.changes.keys()].filter((path) => !staged.forced.includes(path));
    if (!staged.stored) {
      // Many files: git stores them, in one process, before the tree is written.
      if (staged.forced.length > 0) await this.runIndex(["--force-remove"], staged.forced);
      const input = Buffer.from(update.map((path) => `${path}\0`).join(""));
      const add = ["add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"];
      if (update.length > 0) await runGit(this.place, add, input);
      return;
    }
    try {
      if (staged.forced.length > 0) await this.runIndex(["--force-remove"], staged.forced);
      if (update.length > 0) await this.runIndex(["--add", "--remove", "--replace"], update);
    } catch {
      for (const path of staged.changes.keys()) this.unsure.add(path);
    }
    for (const path of staged.changes.keys()) {
      const then = staged.facts.get(path)?.stat ?? null;
      const now = this.entry(path);
      if (then !== (typeof now === "string" ? null : now.stat)) this.unsure.add(path);
    }
  }

  private async runIndex(flags: string[], paths: string[]): Promise<void> {
    const input = Buffer.from(paths.map((path) => `${path}\0`).join(""));
    await runGit(this.place, ["update-index", ...flags, "-z", "--stdin"], input);
  }

  private noteOnce(path: string, size: number): boolean {
    if (this.noted.get(path) === size) return false;
    this.noted.set(path, size);
    return true;
  }

  /**
   * Whether every folder on the way to `path` is a real folder (not a symlink): a path below a
   * symlink is no longer in the workspace, whatever is at the link's target.
   */
  private realFolders(path: string, known: Map<string, boolean>): boolean {
    const parts = path.split("/");
    for (let depth = 1; depth < parts.length; depth++) {
      const folder = parts.slice(0, depth).join("/");
      let real = known.get(folder);
      if (real === undefined) {
        try {
          real = lstatSync(join(this.place.workTree, folder)).isDirectory();
        } catch {
          real = false;
        }
        known.set(folder, real);
      }
      if (!real) return false;
    }
    return true;
  }

  /** One workspace entry as lstat sees it (a symlink is never followed). */
  private entry(path: string) {
    let stat: BigStats;
    try {
      stat = lstatSync(join(this.place.workTree, path), { bigint: true });
    } catch {
      return "gone" as const;
    }
    if (stat.isDirectory()) return "folder" as const;
    if (!stat.isFile() && !stat.isSymbolicLink()) return "not_a_file" as const;
    const size = Number(stat.size);
    const perm = stat.isSymbolicLink() ? null : Number(stat.mode & 0o7777n);
    const signature = `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.mode}`;
    return { size, perm, ctime: stat.ctimeNs, stat: signature };
  }

  /** The paths whose entry differs between two trees (git's diff, when the index moved on). */
  private async changedPaths(from: string, to: string): Promise<string[]> {
    if (from === to) return [];
    const raw = await runGit(this.place, ["diff-tree", "-r", "-z", "--no-renames", from, to]);
    return parseRawDiff(raw).map((change) => change.path);
  }

  /**
   * The files among `paths` (and those whose exact permission bits changed) whose entry
   * differs between state `from` and state `to`, read from the trees; and the change in the
   * number of files.
   */
  private async compare(
    from: RecordedState,
    to: { tree: string; modes: string | undefined },
    paths: readonly string[],
    facts: Map<string, Fact>,
  ) {
    const oldModes = this.modesOf(from.modes ?? undefined);
    const candidates = new Set(paths);
    if (from.modes !== to.modes) {
      for (const path of new Set([...oldModes.keys(), ...this.modes.keys()]))
        if (oldModes.get(path) !== this.modes.get(path)) candidates.add(path);
    }
    const files: CapturedFile[] = [];
    let delta = 0;
    for (const path of [...candidates].sort()) {
      const old = fileEntry(this.trees.entry(from.tree, path));
      const now = fileEntry(this.trees.entry(to.tree, path));
      const mode = now ? (this.modes.get(path) ?? now.mode) : undefined;
      if (old?.hash === now?.hash && (old ? (oldModes.get(path) ?? old.mode) : undefined) === mode)
        continue;
      if (old === null) delta++;
      if (now === null) delta--;
      if (now === null) {
        files.push({ path, hash: null });
        continue;
      }
      const fact = facts.get(path);
      const binary = fact?.binary ?? (await looksBinary(join(this.place.workTree, path)));
      files.push({
        path,
        hash: now.hash,
        mode: mode ?? now.mode,
        ...(fact ? { bytes: fact.bytes } : {}),
        ...(binary ? { binary: true as const } : {}),
      });
    }
    return { files, delta };
  }

  /** The change in the number of files from tree `from` to tree `to`, over `paths`. */
  private countDelta(from: string, to: string, paths: readonly string[]): number {
    let delta = 0;
    for (const path of paths) {
      delta += fileEntry(this.trees.entry(to, path)) ? 1 : 0;
      delta -= fileEntry(this.trees.entry(from, path)) ? 1 : 0;
    }
    return delta;
  }

  /**
   * The changed files whose change came before `since`: a file's change time, or for a file
   * gone, that of the nearest folder still there (a removal changes its folder).
   */
  private changedBefore(files: CapturedFile[], facts: Map<string, Fact>, since: bigint): string[] {
    const outside: string[] = [];
    for (const file of files) {
      let ctime = facts.get(file.path)?.ctime;
      let place = file.path;
      while (ctime === undefined) {
        place = place.includes("/") ? dirname(place) : "";
        try {
          ctime = lstatSync(join(this.place.workTree, place), { bigint: true }).ctimeNs;
        } catch {
          if (place === "") break;
        }
      }
      if (ctime !== undefined && ctime < since) outside.push(file.path);
    }
    return outside;
  }

  /** The number of files in `tree`. */
  private async count(tree: string): Promise<number> {
    if (tree === EMPTY_TREE) return 0;
    return splitZ(await runGit(this.place, ["ls-tree", "-r", "-z", "--name-only", tree])).length;
  }
}

/** A tree entry that is a file or a symlink (a folder counts as none). */
function fileEntry(entry: TreeEntry | null): TreeEntry | null {
  return entry === null || entry.mode === DIRECTORY ? null : entry;
}

/** Whether a file's first 8,000 bytes hold a NUL (git's own test for binary). */
async function looksBinary(path: string): Promise<boolean> {
  try {
    const handle = await open(
      path,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
    try {
      const buffer = Buffer.alloc(8000);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return buffer.subarray(0, bytesRead).includes(0);
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/** The mode and blob of one path in `tree`, or null when it has none. */
export async function entryIn(
  place: GitPlace,
  tree: string,
  path: string,
): Promise<{ mode: number; hash: string } | null> {
  const out = await runGit(place, ["ls-tree", "-z", tree, "--", path]);
  const line = splitZ(out)[0];
  if (!line) return null;
  const [meta = "", name] = line.split("\t");
  const [mode = "0", , hash = ""] = meta.split(" ");
  return name === path ? { mode: Number.parseInt(mode, 8), hash } : null;
}

/** NUL-separated records, the empty tail dropped. */
function splitZ(out: Buffer): string[] {
  const text = out.toString("utf8");
  return text === "" ? [] : text.split("\0").filter((part) => part !== "");
}

interface RawChange {
  path: string;
  mode: number;
  hash: string;
  deleted: boolean;
  oldMode: number;
}

/** `git diff-tree -r -z` raw output: `:old new oldsha newsha status\0path\0`, one a change. */
export function parseRawDiff(raw: Buffer): RawChange[] {
  const parts = raw.toString("utf8").split("\0");
  const changes: RawChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i] ?? "";
    if (!meta.startsWith(":")) break;
    const [oldMode = "0", mode = "0", , hash = "", status = ""] = meta.slice(1).split(" ");
    changes.push({
      path: parts[i + 1] ?? "",
      mode: Number.parseInt(mode, 8),
      oldMode: Number.parseInt(oldMode, 8),
      hash,
      deleted: status.startsWith("D"),
    });
  }
  return changes;
}

function modesBlob(modes: Map<string, number>): Buffer {
  const sorted = [...modes].sort(([a], [b]) => (a < b ? -1 : 1));
  return Buffer.from(JSON.stringify(Object.fromEntries(sorted)));
}

function parseModes(bytes: Buffer): Map<string, number> {
  const parsed = JSON.parse(bytes.toString("utf8")) as Record<string, number>;
  return new Map(Object.entries(parsed));
}

/** The unified diff from tree `from` to tree `to` (git's own text diff; binary files named). */
export async function treeDiff(place: GitPlace, from: string, to: string): Promise<string> {
  const args = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames"];
  return (await runGit(place, [...args, from, to])).toString("utf8");
}
