// Stage 5 of the output policy: spill files. A session owns one directory under the OS temp
// dir (mode 0700, named with its pid so a later start-up can sweep it when the pid is dead);
// files are 0600. The directory is removed on exit, SIGINT, SIGTERM and uncaught errors
// (shutdown.ts), unless kept on purpose.
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onShutdown } from "./shutdown.ts";

const PREFIX = "codewhale-spill-";
const KEPT_PREFIX = "codewhale-kept-";

export interface SpillScope {
  /** The directory; created on first use. */
  readonly dir: string;
  /** Creates the next spill file (0600) for writing, named `<stem>-<n>.log`. */
  createFile(stem?: string): Promise<SpillFile>;
  /** Removes the directory and everything in it; idempotent. */
  dispose(): void;
}

export interface SpillFile {
  readonly path: string;
  /** Appends; each write has its own position, so writes may overlap without awaiting. */
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
  /** Closes and deletes the file (after a failed write). */
  discard(): Promise<void>;
}

export interface SpillScopeOptions {
  /** Base directory; default os.tmpdir() at creation time. */
  tmpDir?: string;
  /**
   * Leave the directory in place at exit (`codewhale capture --keep-spill`); it is named
   * `codewhale-kept-<id>`, which the sweep of dead sessions' directories leaves alone.
   */
  keep?: boolean;
}

export function createSpillScope(sessionId: string, options: SpillScopeOptions = {}): SpillScope {
  const safeId = sessionId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
  // A kept directory is named without the pid, so no later sweep takes it for a dead session's.
  const name = options.keep ? `${KEPT_PREFIX}${safeId}` : `${PREFIX}${process.pid}-${safeId}`;
  const dir = join(options.tmpDir ?? tmpdir(), name);
  let created = false;
  let counter = 0;
  let untrack: (() => void) | null = null;
  const scope: SpillScope = {
    dir,
    async createFile(stem = "output") {
      if (!created) {
        mkdirSync(dir, { mode: 0o700 });
        created = true;
        if (!options.keep) untrack = onShutdown(() => scope.dispose());
      }
      counter += 1;
      const path = join(dir, `${stem.replace(/[^A-Za-z0-9_-]/g, "_")}-${counter}.log`);
      return openSpillFile(path, await open(path, "wx", 0o600));
    },
    dispose() {
      untrack?.();
      untrack = null;
      if (created) rmSync(dir, { recursive: true, force: true });
      created = false;
    },
  };
  return scope;
}

function openSpillFile(path: string, handle: FileHandle): SpillFile {
  let closed = false;
  let position = 0;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    path,
    async write(bytes) {
      const at = position;
      position += bytes.length;
      for (let done = 0; done < bytes.length; ) {
        const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, at + done);
        if (bytesWritten === 0) throw new Error(`spill: no bytes written to ${path}`);
        done += bytesWritten;
      }
    },
    close,
    async discard() {
      await close().catch(() => {});
      rmSync(path, { force: true });
    },
  };
}

/**
 * Removes spill directories whose owning process is gone (a session killed by SIGKILL), the
 * sandbox's private empty directory, seccomp filter and file-clock directory of such a process
 * (`codewhale-empty-<pid>-…`, `codewhale-seccomp-<pid>-…`, `codewhale-clock-<pid>-…`: removed
 * at a normal exit), and the
 * background-log directories (`codewhale-bg-<pid>-…`) of versions that kept them apart.
 * Returns the removed paths.
 */
export function sweepStaleSpillDirs(tmpDir: string = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(tmpDir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = Number(/^codewhale-(?:spill|bg|empty|seccomp|clock)-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || isAlive(pid)) continue;
    const path = join(tmpDir, name);
    try {
      if (statSync(path).uid !== process.getuid?.()) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // Gone already, or not ours to remove.
    }
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
