// Ties a child's life to codewhale's without native code. Every child is started through a tiny
// /bin/sh wrapper that first starts a watcher in the child's process group, then execs the
// command (same pid, same exit status). The watcher blocks reading fd 3, a socket whose other
// end only codewhale holds: when codewhale dies, by SIGKILL too, the kernel closes that end, the
// read sees EOF and the watcher SIGKILLs the whole group. Used by run-command.ts and hooks/.
import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";
import type { Readable, Writable } from "node:stream";

/**
 * The watcher is a background subshell of the wrapper, started before the wrapper execs the
 * command (so it is in the command's group, and its parent becomes the command, which never
 * waits for it: it only exits after the command did). The wrapper reports its pid on fd 3. It
 * ignores SIGTERM/SIGINT/SIGHUP (a tree kill's SIGTERM must not end it while the command
 * lingers in its grace) and reads one line from fd 3: it exits quietly when it gets one
 * (codewhale's release) and kills its process group when the read ends without one (EOF:
 * codewhale is gone). The command itself gets no fd 3.
 */
const WATCHER = `{ trap '' HUP INT TERM; read -r _ <&3 || kill -s KILL 0; } </dev/null >/dev/null 2>&1 & echo $! >&3`;
const SCRIPT_MERGED = `${WATCHER}; exec "$@" 3<&- 2>&1`;
const SCRIPT_SEPARATE = `${WATCHER}; exec "$@" 3<&-`;
/** How long to wait for the watcher's pid (the wrapper writes it before it execs the command). */
const WATCHER_WAIT_MS = 1000;

export interface TetheredSpec {
  argv: readonly string[];
  cwd?: string;
  env: NodeJS.ProcessEnv;
  /** Whether the child gets a stdin pipe (hooks) or /dev/null. */
  stdin: "pipe" | "ignore";
  /** Send the command's stderr into its stdout pipe (arrival order kept exactly). */
  mergeStderr: boolean;
  /** Given to the command on fd 4, then closed (a seccomp filter for bwrap, sandbox-seccomp.ts). */
  fd4?: Buffer;
  /** Open a Node IPC channel after those (the network bridge's, sandbox-bridge.ts). */
  ipc?: boolean;
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
   * exits without killing) and closes codewhale's end once that is written. Idempotent.
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
    stdio: [
      spec.stdin,
      "pipe",
      "pipe",
      "pipe",
      ...(spec.fd4 ? ["pipe" as const] : []),
      ...(spec.ipc ? ["ipc" as const] : []),
    ],
  });
  if (spec.fd4) (child.stdio[4] as Socket).end(spec.fd4);
  const line = child.stdio[3] as Socket | null;
  const pid = line ? readWatcherPid(line) : Promise.resolve(null);
  let released: Promise<void> | null = null;
  return {
    child,
    stdout: child.stdout!,
    stderr: child.stderr!,
    stdin: child.stdin,
    watcherPid: () => pid,
    release() {
      released ??= line ? releaseLine(line) : Promise.resolve();
      return released;
    },
    keep() {
      released ??= Promise.resolve();
      line?.unref();
    },
  };
}

/** The first line on the lifeline: the watcher's pid; null after WATCHER_WAIT_MS or a close. */
function readWatcherPid(line: Socket): Promise<number | null> {
  return new Promise((resolve) => {
    let text = "";
    const settle = (value: number | null) => {
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => settle(null), WATCHER_WAIT_MS);
    timer.unref();
    line.on("data", (chunk: Buffer) => {
      if (text.length > 32) return;
      text += chunk.toString("latin1");
      const end = text.indexOf("\n");
      if (end >= 0) settle(Number(text.slice(0, end)) || null);
    });
    line.once("end", () => settle(null));
    line.once("close", () => settle(null));
    line.on("error", () => settle(null));
  });
}

/** Writes the release line; our end closes once it is written (the watcher reads it first). */
function releaseLine(line: Socket): Promise<void> {
  if (!line.writableEnded && !line.destroyed) line.end("\n", () => line.destroy());
  line.unref();
  return Promise.resolve();
}
