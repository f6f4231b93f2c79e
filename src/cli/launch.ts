// The launch frame, drawn by the bin before it loads the CLI bundle (built as dist/launch.cjs,
// required by bin/codewhale.cjs): on a plain interactive start in a terminal whose frame file
// matches (launch-frame.ts, launch-key.ts), the stored first frame is written at once with a
// fresh session id, the terminal put in raw mode (keys typed meanwhile wait unechoed in the
// terminal's buffer for the editor), and a handoff left for the CLI (launch-handoff.ts): the TUI
// claims it and its first render lands on the same bytes; any other end erases the frame first.
import { isatty } from "node:tty";
import { ExitCode } from "../errors.ts";
import { newSessionId } from "../session/paths.ts";
import { VERSION } from "../version.ts";
import {
  eraseBytes,
  frameBytes,
  type LaunchFrame,
  linesFor,
  parseFrame,
  readFrameFile,
} from "./launch-frame.ts";
import { launchFramePath, launchKey, plainStartWorkspace } from "./launch-key.ts";

/** What the bin hands the CLI on a plain interactive start (global: two bundles, one process). */
export interface LaunchHandoff {
  key: string;
  /** The frame file of this start (read on a hit, written by the TUI's first frame on a miss). */
  file: string;
  columns: number;
  rows: number;
  /** On a hit: the frame on screen, drawn for this session id. */
  shown?: { frame: LaunchFrame; lines: string[]; sessionId: string };
  /** The TUI has taken the screen over: no erasing from here on. */
  claim(): void;
  /** Erases a shown frame and gives the terminal back (cooked mode); at most once. */
  erase(): void;
}

export const HANDOFF = Symbol.for("codewhale.launch-handoff");
const SIGNALS = ["SIGTERM", "SIGHUP", "SIGINT"] as const;

/** Called by the bin with its arguments and the bundles' directory; never throws. */
export function launch(argv: readonly string[], distDir: string): void {
  try {
    const handoff = prepare(argv, distDir);
    if (handoff) (globalThis as Record<symbol, unknown>)[HANDOFF] = handoff;
  } catch {
    // No launch frame: the first frame comes from the TUI as it would without one.
  }
}

function prepare(argv: readonly string[], distDir: string): LaunchHandoff | undefined {
  const env = process.env;
  if (env.CODEWHALE_LAUNCH_FRAME === "0") return undefined;
  if (!isatty(0) || !isatty(1)) return undefined;
  const cwd = process.cwd();
  const workspace = plainStartWorkspace(argv, cwd);
  if (workspace === undefined) return undefined;
  const { columns, rows } = process.stdout;
  if (!columns || !rows) return undefined;
  const key = launchKey({ argv, cwd, workspace, env, columns, rows, distDir, version: VERSION });
  const file = launchFramePath(env, workspace, argv);
  const text = readFrameFile(file);
  const frame = text === undefined ? undefined : parseFrame(text, { key, columns, rows });
  const { handoff, show } = handoffOf(key, file, columns, rows);
  if (frame) show(frame);
  return handoff;
}

function handoffOf(
  key: string,
  file: string,
  columns: number,
  rows: number,
): { handoff: LaunchHandoff; show(frame: LaunchFrame): void } {
  let drawn: LaunchFrame | undefined;
  // As the TUI's own guard (src/tui/terminal-restore.ts) ends a session on a signal.
  const onSignal = () => {
    handoff.erase();
    writeErr("codewhale: stopped by a signal\n");
    process.exit(ExitCode.cancelled);
  };
  const unguard = () => {
    for (const signal of SIGNALS) process.off(signal, onSignal);
    process.off("exit", handoff.erase);
  };
  const handoff: LaunchHandoff = {
    key,
    file,
    columns,
    rows,
    claim: () => {
      drawn = undefined;
      unguard();
    },
    erase: () => {
      if (!drawn) return;
      const frame = drawn;
      drawn = undefined;
      unguard();
      // The frame's rows cleared, the cursor shown, bracketed paste off; cooked mode.
      writeOut(`${eraseBytes(frame)}\x1b[?2004l`);
      setRaw(false);
    },
  };
  /** Draws the frame: raw mode first, so nothing typed from here on is echoed over it. */
  const show = (frame: LaunchFrame) => {
    const sessionId = newSessionId();
    const lines = linesFor(frame, sessionId);
    if (!setRaw(true)) return;
    // Bracketed paste on, as the editor will ask (a paste made now stays one paste), the cursor
    // hidden, then the frame, as the TUI draws it.
    writeOut(`\x1b[?2004h\x1b[?25l${frameBytes(lines, frame.cursor)}\x1b[?25l`);
    handoff.shown = { frame, lines, sessionId };
    drawn = frame;
    for (const signal of SIGNALS) process.on(signal, onSignal);
    process.on("exit", handoff.erase);
  };
  return { handoff, show };
}

function setRaw(raw: boolean): boolean {
  try {
    process.stdin.setRawMode(raw);
    return true;
  } catch {
    return false;
  }
}

function writeOut(bytes: string): void {
  try {
    process.stdout.write(bytes);
  } catch {
    // The terminal is gone: nothing to draw on.
  }
}

function writeErr(line: string): void {
  try {
    process.stderr.write(line);
  } catch {
    // As above.
  }
}

/** For the bin: where its code caches live, the home as the config loader resolves it. */
export { resolveHome } from "../config/home.ts";
