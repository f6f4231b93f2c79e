// Runs the built `codewhale` in a real terminal for end-to-end tests of the interactive UI:
// a tmux server on a private socket per test, keys sent with `send-keys`, the screen read with
// `capture-pane`. Waits always poll the screen for an expected text (never fixed sleeps), so a
// slow machine only makes them slower. The session runs `sh -c`, so a test can see what the
// shell finds after codewhale ends (its exit status, the tty modes).
import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliPath } from "./cli.ts";

export interface TmuxScreen {
  /** Types literal text (no Enter). */
  type(text: string): void;
  /** Pastes text as a terminal does (bracketed paste when the program asked for it). */
  paste(text: string): void;
  /** Sends tmux key names: "Enter", "Escape", "C-c", "C-d", "S-Enter". */
  keys(...names: string[]): void;
  /** The visible screen, trailing blanks trimmed. */
  screen(): string;
  /** Polls until the screen matches; throws with the last screen after `timeoutMs`. */
  waitFor(expected: string | RegExp, timeoutMs?: number): Promise<string>;
  resize(columns: number, rows: number): void;
  /** Every byte the program wrote to the terminal so far (with `record: true`), as UTF-8. */
  raw(): string;
  /** A tmux format of the pane, e.g. "#{cursor_flag}". */
  format(spec: string): string;
  /** The pid of the process in the pane (sh, then codewhale exec'd by nothing: sh's child). */
  panePid(): number;
  kill(): void;
}

export function tmuxAvailable(): boolean {
  return spawnSync("tmux", ["-V"], { encoding: "utf8" }).status === 0;
}

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * Starts `codewhale <args>` in a new tmux session of `columns`×`rows` in `cwd` with exactly
 * `env` (plus TERM). After codewhale exits, the shell prints `EXITED <status>` and the tty's
 * modes (`TTY icanon echo END`), then waits, so the pane stays readable.
 */
export function startTmux(
  args: string[],
  options: {
    env: Record<string, string>;
    cwd: string;
    columns?: number;
    rows?: number;
    /** Runs this instead of codewhale (benchmark baselines). */
    command?: string[];
    /** Keep every byte written to the terminal, for `raw()` (tmux pipe-pane). */
    record?: boolean;
  },
): TmuxScreen {
  // A socket of our own, removed with the server: nothing is left in tmux's shared directory.
  const socket = join(tmpdir(), `cw-tmux-${process.pid}-${randomBytes(4).toString("hex")}`);
  const env = { ...options.env, TERM: "xterm-256color", HOME: options.env.HOME ?? options.cwd };
  const tmuxArgs = (args: string[]) => ["-S", socket, "-f", "/dev/null", ...args];
  const tmux = (...args: string[]) => {
    const run = spawnSync("tmux", tmuxArgs(args), { encoding: "utf8", env });
    if (run.status !== 0) throw new Error(`tmux ${args[0]}: ${run.stderr}`);
    return run.stdout;
  };
  const command = (options.command ?? [process.execPath, cliPath, ...args]).map(quote).join(" ");
  const modes = `stty -a | tr -s ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '`;
  const script = `${command}; echo "EXITED $?"; echo "TTY $(${modes})END"; sleep 600`;
  tmux(
    "new-session",
    "-d",
    "-s",
    "cw",
    "-x",
    String(options.columns ?? 100),
    "-y",
    String(options.rows ?? 30),
    "-c",
    options.cwd,
    "sh",
    "-c",
    script,
  );
  tmux("set-option", "-t", "cw", "status", "off");
  const recording = `${socket}.raw`;
  if (options.record) tmux("pipe-pane", "-o", "-t", "cw", `cat >> ${quote(recording)}`);
  const panePid = () => Number(tmux("display-message", "-p", "-t", "cw", "#{pane_pid}").trim());
  const trimmed = (captured: string) =>
    captured
      .split("\n")
      .map((line) => line.trimEnd())
      .join("\n")
      .trimEnd();
  const screen = () => trimmed(tmux("capture-pane", "-p", "-t", "cw"));
  // waitFor polls without blocking this process: the mock provider answering the program runs
  // on this process's event loop, and a synchronous capture many times a second from several
  // tests at once starved it on a loaded machine (requests unread for 20 s in CI).
  const captured = () =>
    new Promise<string>((resolve, reject) => {
      execFile("tmux", tmuxArgs(["capture-pane", "-p", "-t", "cw"]), { env }, (error, stdout) =>
        error ? reject(error) : resolve(trimmed(stdout)),
      );
    });
  return {
    type: (text) => void tmux("send-keys", "-t", "cw", "-l", text),
    keys: (...names) => void tmux("send-keys", "-t", "cw", ...names),
    paste(text) {
      const file = `${socket}.paste`;
      writeFileSync(file, text);
      tmux("load-buffer", "-b", "cw-paste", file);
      rmSync(file, { force: true });
      tmux("paste-buffer", "-p", "-d", "-b", "cw-paste", "-t", "cw");
    },
    screen,
    async waitFor(expected, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      let last = "";
      for (;;) {
        last = await captured();
        if (typeof expected === "string" ? last.includes(expected) : expected.test(last))
          return last;
        if (Date.now() > until) {
          const processes = `${processTree(panePid())}\n${loopStalls()}`;
          throw new Error(
            `timed out waiting for ${String(expected)}; the screen:\n${last}\nthe processes:\n${processes}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    resize: (columns, rows) =>
      void tmux("resize-window", "-t", "cw", "-x", String(columns), "-y", String(rows)),
    format: (spec) => tmux("display-message", "-p", "-t", "cw", spec).trim(),
    raw: () => {
      if (!options.record) throw new Error("startTmux without record: true");
      try {
        return readFileSync(recording, "utf8");
      } catch {
        return "";
      }
    },
    panePid,
    kill: () => {
      spawnSync("tmux", ["-S", socket, "kill-server"], { env });
      rmSync(socket, { force: true });
      rmSync(recording, { force: true });
    },
  };
}

/** The pid of `parent`'s only child (codewhale under the pane's shell), from /proc. */
export function childOf(parent: number): number {
  const children = readFileSync(`/proc/${parent}/task/${parent}/children`, "utf8")
    .trim()
    .split(/\s+/);
  const pid = Number(children[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no child of ${parent}`);
  return pid;
}

/**
 * The processes under `root` with their state and what they wait in (a timed-out wait names
 * them: a command stuck in the kernel, a codewhale waiting on its provider), one per line.
 */
function processTree(root: number, depth = 0): string {
  try {
    const stat = readFileSync(`/proc/${root}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    const wchan = readFileSync(`/proc/${root}/wchan`, "utf8");
    const command = readFileSync(`/proc/${root}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    const children = readFileSync(`/proc/${root}/task/${root}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((pid) => processTree(Number(pid), depth + 1));
    const line = `${"  ".repeat(depth)}${root} ${state} ${wchan || "-"} ${command.slice(0, 160)}`;
    const sockets = tcpSockets(root).map((socket) => `${"  ".repeat(depth + 1)}tcp ${socket}`);
    return [line, ...sockets, ...children].join("\n");
  } catch {
    return `${"  ".repeat(depth)}${root} (gone)`;
  }
}

const TCP_STATES: Record<string, string> = {
  "01": "ESTABLISHED",
  "02": "SYN_SENT",
  "06": "TIME_WAIT",
  "08": "CLOSE_WAIT",
  "0A": "LISTEN",
};

/** The TCP sockets `pid` holds, with both ends' ports, state and queues (from /proc/net/tcp). */
function tcpSockets(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // Closed meanwhile.
    }
  }
  const rows = readFileSync(`/proc/${pid}/net/tcp`, "utf8").trim().split("\n").slice(1);
  const port = (address: string) => Number.parseInt(address.split(":")[1] ?? "0", 16);
  const all = rows.map((row) => row.trim().split(/\s+/));
  return all
    .filter((fields) => inodes.has(fields[9] ?? ""))
    .map((fields) => {
      const [local = "", remote = "", state = ""] = fields.slice(1, 4);
      // The other end, when it is on this host (the mock provider): what it has not read yet.
      const peer = all.find((other) => other[1] === remote && other[2] === local);
      return `:${port(local)} -> :${port(remote)} ${TCP_STATES[state] ?? state} queues ${fields[4]}${peer ? `; peer queues ${peer[4]}` : ""}`;
    });
}

/** Stalls of this test process's event loop (over a second) in the last minute. */
const stalls: Array<{ at: number; ms: number }> = [];
let tick = Date.now();
setInterval(() => {
  const now = Date.now();
  if (now - tick > 1000) stalls.push({ at: now, ms: now - tick });
  tick = now;
}, 100).unref();

function loopStalls(): string {
  const recent = stalls.filter((stall) => stall.at > Date.now() - 60_000).map((stall) => stall.ms);
  return `this test process's event loop stalled over 1 s ${recent.length} times in the last minute${recent.length ? ` (longest ${Math.max(...recent)} ms)` : ""}`;
}
