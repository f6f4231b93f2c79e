// Ties a child's life to codewhale's without native code. Every child is started through a tiny
// /bin/sh wrapper that first starts a watcher in the child's process group, then execs the
// command (same pid, same exit status). The watcher blocks reading fd 3, a socket whose other
// end only codewhale holds: when codewhale dies, by SIGKILL too, the kernel closes that end, the
// read sees EOF and the watcher SIGKILLs the whole group. Used by run-command.ts and hooks/.
import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";
import type { Readable, Writable } from "node:stream";

/**
 * The watcher reports its pid on fd 3, ignores SIGTERM/SIGINT/SIGHUP (a tree kill's SIGTERM must
 * not end it while the command lingers in its grace), then reads one line from fd 3: it exits
 * quietly when it gets one (codewhale's release), and kills its process group when the read ends
 * without one (EOF: codewhale is gone). `( … & )` orphans it, so it is never a child the command
 * could reap or wait for; the command itself gets no fd 3.
 */
const WATCHER = `exec /bin/sh -c 'echo $$ >&3; trap "" HUP INT TERM; read -r _ <&3 || kill -s KILL 0'`;
const START_WATCHER = `( ${WATCHER} </dev/null >/dev/null 2>&1 & )`;
const SCRIPT_MERGED = `${START_WATCHER}; exec "$@" 3<&- 2>&1`;
const SCRIPT_SEPARATE = `${START_WATCHER}; exec "$@" 3<&-`;
/** How long to wait for the watcher's pid, and for it to let go of its end after a release. */
const WATCHER_WAIT_MS = 1000;
const RELEASE_WAIT_MS = 500;

export interface TetheredSpec {
  argv: readonly string[];
  cwd?: string;
  env: NodeJS.ProcessEnv;
  /** Whether the child gets a stdin pipe (hooks) or /dev/null. */
  stdin: "pipe" | "ignore";
  /** Send the command's stderr into its stdout pipe (arrival order kept exactly). */
  mergeStderr: boolean;
}

export interface TetheredChild {
  child: ChildProcess;
  stdout: Readable;
  stderr: Readable;
  /** Null when the child got no stdin pipe. */
  stdin: Writable | null;
  /** The watcher's pid once it has reported it (it does at once), or null if it never did. */
  watcherPid(): Promise<number | null>;
  /**
   * Once the command has exited and its leftovers are dealt with: tells the watcher to go (it
   * exits without killing) and waits, briefly, until it has. Idempotent.
   */
  release(): Promise<void>;
  /**
   * Keeps the lifeline for the rest of codewhale's life instead (what a hook left running lives
   * as long as the session): it no longer holds the event loop open, and codewhale's exit, of
   * any kind, closes it and so kills the group.
   */
  keep(): void;
}

/** Spawns `argv` detached (its own session and process group) with a lifeline on fd 3. */
export function spawnTethered(spec: TetheredSpec): TetheredChild {
  const script = spec.mergeStderr ? SCRIPT_MERGED : SCRIPT_SEPARATE;
  const child = spawn("/bin/sh", ["-c", script, "sh", ...spec.argv], {
    cwd: spec.cwd,
    env: spec.env,
    detached: true,
    stdio: [spec.stdin, "pipe", "pipe", "pipe"],
  });
  const line = child.stdio[3] as Socket | null;
  const watcher = line ? watchLine(line) : { pid: Promise.resolve(null), gone: Promise.resolve() };
  let released: Promise<void> | null = null;
  return {
    child,
    stdout: child.stdout!,
    stderr: child.stderr!,
    stdin: child.stdin,
    watcherPid: () => watcher.pid,
    release() {
      released ??= line ? releaseLine(line, watcher.gone) : Promise.resolve();
      return released;
    },
    keep() {
      released ??= Promise.resolve();
      line?.unref();
    },
  };
}

interface WatcherLine {
  /** The first line the watcher writes: its pid; null after WATCHER_WAIT_MS or if it closed. */
  pid: Promise<number | null>;
  /** Settles when the far end is closed: the watcher has exited, or was killed. */
  gone: Promise<void>;
}

function watchLine(line: Socket): WatcherLine {
  let text = "";
  let settlePid: (value: number | null) => void = () => {};
  const pid = new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => settlePid(null), WATCHER_WAIT_MS);
    timer.unref();
    settlePid = (value) => {
      clearTimeout(timer);
      settlePid = () => {};
      resolve(value);
    };
  });
  line.on("data", (chunk: Buffer) => {
    if (text.length > 32) return;
    text += chunk.toString("latin1");
    const end = text.indexOf("\n");
    if (end >= 0) settlePid(Number(text.slice(0, end)) || null);
  });
  const gone = new Promise<void>((resolve) => {
    const settle = () => {
      settlePid(null);
      resolve();
    };
    line.once("end", settle);
    line.once("close", settle);
    line.on("error", settle);
  });
  return { pid, gone };
}

/** Writes the release line and waits until the far end closes (the watcher has exited). */
async function releaseLine(line: Socket, gone: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  if (!line.writableEnded && !line.destroyed) line.end("\n");
  await Promise.race([
    gone,
    new Promise((resolve) => (timer = setTimeout(resolve, RELEASE_WAIT_MS))),
  ]);
  clearTimeout(timer);
  line.destroy();
}
