// A session's checkpoint store: a shadow git repository of its own at
// $CODEWHALE_HOME/checkpoints/<session>/git (mode 0700) whose index caches the workspace's
// stat data, so a capture costs about one `git status`: `git ls-files` names what changed
// (.gitignore honoured), codewhale sorts out what not to store (too large, not a file, a
// nested repository), `git add` stores the rest, and a tree records the whole state. Never touches the user's .git (docs/rfc, rewind.md).
import { constants, lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { type GitPlace, runGit } from "./git.ts";
import { readBlob, writeBlob } from "./objects.ts";

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
}

/** What the log says the store held last: a tree, its modes blob, its file count. */
export interface RecordedState {
  tree: string;
  modes?: string | undefined;
  fileCount: number;
}

/**
 * The store's own attributes, which take precedence over every `.gitattributes` of the
 * workspace: no line-ending, `ident`, encoding or filter conversion, so git stores each file's
 * bytes exactly.
 */
const ATTRIBUTES = "* -text -eol -crlf -ident -filter !working-tree-encoding\n";

/** The empty tree's id (git's well-known constant). */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** The store's folder of a session. */
function storeDir(home: string, sessionId: string): string {
  return join(home, "checkpoints", sessionId);
}

/** A stored file's size, and whether it is a regular file (not a symlink). */
interface Fact {
  bytes: number;
  regular: boolean;
}

export class CheckpointStore {
  /** Exact permission bits of files that are neither 0644 nor 0755, by path. */
  private modes = new Map<string, number>();
  private recorded: RecordedState | null = null;
  /** Too-large files already noted, so each is noted once per size. */
  private readonly noted = new Map<string, number>();

  private constructor(
    readonly dir: string,
    readonly place: GitPlace,
    private readonly limits: CaptureLimits,
  ) {}

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
    try {
      lstatSync(join(place.gitDir, "HEAD"));
    } catch {
      await runGit(place, ["init", "--quiet"]);
      const settings = [
        ["core.fileMode", "true"],
        ["core.symlinks", "true"],
        ["core.autocrlf", "false"],
        ["core.quotePath", "false"],
        ["gc.auto", "0"],
      ];
      for (const [key, value] of settings) await runGit(place, ["config", key ?? "", value ?? ""]);
      mkdirSync(join(place.gitDir, "info"), { recursive: true, mode: 0o700 });
      writeFileSync(join(place.gitDir, "info", "attributes"), ATTRIBUTES, { mode: 0o600 });
    }
    return store;
  }

  /** Sets the state the log last recorded (on resume, after a rewind). */
  restoreRecorded(state: RecordedState | null): void {
    this.recorded = state;
    this.modes = state?.modes ? parseModes(readBlob(this.place.gitDir, state.modes)) : new Map();
  }

  /** The last recorded state, or null before the first checkpoint. */
  lastRecorded(): RecordedState | null {
    return this.recorded;
  }

  /** The exact permission bits of a tree's files recorded in a modes blob. */
  modesOf(blob: string | undefined): Map<string, number> {
    return blob ? parseModes(readBlob(this.place.gitDir, blob)) : new Map();
  }

  /**
   * Captures the workspace: stores what changed since the index last saw it, writes the tree,
   * and lists the files that differ from the last recorded state. Does not record it: call
   * `markRecorded` once the event is in the log.
   */
  async capture(): Promise<Capture> {
    const listed = await runGit(this.place, [
      "ls-files",
      "-z",
      "-t",
      "-m",
      "-d",
      "-o",
      "--exclude-standard",
    ]);
    const seen = new Map<string, string>();
    for (const entry of splitZ(listed)) seen.set(entry.slice(2), entry.slice(0, 1));
    const staged = await this.stage([...seen.keys()]);
    const tree = (await runGit(this.place, ["write-tree"])).toString().trim();
    const modes =
      this.modes.size > 0 ? writeBlob(this.place.gitDir, modesBlob(this.modes)) : undefined;
    const before = this.recorded;
    const changed = before === null || before.tree !== tree || before.modes !== modes;
    const diff =
      before === null || !changed ? null : await this.diff(before, tree, modes, staged.facts);
    const files = diff?.files ?? [];
    const fileCount =
      before === null
        ? await this.count(tree)
        : before.fileCount + (diff?.added ?? 0) - (diff?.removed ?? 0);
    return {
      tree,
      ...(modes ? { modes } : {}),
      files,
      skipped: staged.skipped,
      fileCount,
      changed,
    };
  }

  /** The capture is in the log: it is now the state later captures are compared with. */
  markRecorded(capture: Pick<Capture, "tree" | "modes" | "fileCount">): void {
    this.recorded = { tree: capture.tree, modes: capture.modes, fileCount: capture.fileCount };
  }

  /**
   * Sorts the listed paths: those to store or drop go to the index (git hashes and stores
   * them, no conversion: see ATTRIBUTES), the rest are noted. Returns what it noted and the
   * size and kind of each stored file.
   */
  private async stage(paths: string[]) {
    const update: string[] = [];
    const gone: string[] = [];
    const folders = new Map<string, boolean>();
    const skipped: SkippedFile[] = [];
    const facts = new Map<string, Fact>();
    let stored = 0;
    for (const path of paths.sort()) {
      if (path.endsWith("/")) {
        if (this.noteOnce(path, -1))
          skipped.push({ path: path.slice(0, -1), reason: "nested_repository" });
        continue;
      }
      const entry = this.realFolders(path, folders) ? this.entry(path) : "gone";
      if (entry === "gone") gone.push(path);
      else if (entry === "not_a_file") {
        if (this.noteOnce(path, -2)) skipped.push({ path, reason: entry });
      } else if (entry.size > this.limits.maxFileBytes) {
        if (this.noteOnce(path, entry.size))
          skipped.push({ path, reason: "too_large", bytes: entry.size });
      } else if (stored + entry.size > this.limits.maxCaptureBytes) {
        skipped.push({ path, reason: "checkpoint_limit", bytes: entry.size });
      } else {
        stored += entry.size;
        update.push(path);
        if (entry.perm === null || entry.perm === 0o644 || entry.perm === 0o755)
          this.modes.delete(path);
        else this.modes.set(path, entry.perm);
        facts.set(path, { bytes: entry.size, regular: entry.perm !== null });
      }
    }
    for (const path of gone) this.modes.delete(path);
    if (gone.length > 0) {
      const input = Buffer.from(gone.map((path) => `${path}\0`).join(""));
      await runGit(this.place, ["update-index", "--force-remove", "-z", "--stdin"], input);
    }
    if (update.length > 0) {
      const input = Buffer.from(update.map((path) => `${path}\0`).join(""));
      const add = ["add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"];
      await runGit(this.place, add, input);
    }
    return { skipped, facts };
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
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(join(this.place.workTree, path));
    } catch {
      return "gone" as const;
    }
    if (stat.isSymbolicLink()) return { size: stat.size, perm: null };
    if (!stat.isFile()) return "not_a_file" as const;
    return { size: stat.size, perm: stat.mode & 0o7777 };
  }

  /** The files whose entry differs between the last recorded state and `tree`. */
  private async diff(
    before: RecordedState,
    tree: string,
    modes: string | undefined,
    facts: Map<string, Fact>,
  ) {
    const raw = await runGit(this.place, [
      "diff-tree",
      "-r",
      "-z",
      "--no-renames",
      before.tree,
      tree,
    ]);
    const files = new Map<string, CapturedFile>();
    let added = 0;
    let removed = 0;
    for (const change of parseRawDiff(raw)) {
      if (change.deleted) removed++;
      else if (change.oldMode === 0) added++;
      const fact = facts.get(change.path);
      files.set(change.path, {
        path: change.path,
        hash: change.deleted ? null : change.hash,
        ...(change.deleted ? {} : { mode: this.modes.get(change.path) ?? change.mode }),
        ...(fact && !change.deleted ? { bytes: fact.bytes } : {}),
        ...(fact?.regular &&
        !change.deleted &&
        (await looksBinary(join(this.place.workTree, change.path)))
          ? { binary: true as const }
          : {}),
      });
    }
    if (before.modes !== modes) {
      const old = this.modesOf(before.modes);
      for (const path of new Set([...old.keys(), ...this.modes.keys()])) {
        if (old.get(path) === this.modes.get(path) || files.has(path)) continue;
        const entry = await entryIn(this.place, tree, path);
        if (entry)
          files.set(path, { path, hash: entry.hash, mode: this.modes.get(path) ?? entry.mode });
      }
    }
    const sorted = [...files.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
    return { files: sorted, added, removed };
  }

  /** The number of files in `tree`. */
  private async count(tree: string): Promise<number> {
    if (tree === EMPTY_TREE) return 0;
    return splitZ(await runGit(this.place, ["ls-tree", "-r", "-z", "--name-only", tree])).length;
  }
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
