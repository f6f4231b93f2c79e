// The launch frame's file and bytes: what the interactive terminal's first frame was (its
// lines as pi-tui drew them, where it left the cursor, the terminal's size), kept 0600 in
// `$CODEWHALE_HOME/cache/` under the key of everything it depends on (launch-key.ts). Read
// strictly (anything but text, SGR colours and OSC 8 links makes the file a miss, so not even a
// forged cache file can move the cursor or set a terminal mode), written atomically. Used by
// launch.ts (the bin, before the CLI bundle) and chat-command.ts (which stores the frame).
import { dirname } from "node:path";
import { readOwnFile, writeOwnFile } from "../config/own-file.ts";

/** Where the session id stands in a stored frame: every start shows a fresh one. */
export const SESSION_MARK = "{{codewhale-session}}";
const FORMAT = 1;
/** Past this many bytes a frame file is not read (a frame is a few hundred). */
const MAX_FILE_BYTES = 64 * 1024;

export interface LaunchFrame {
  /** The key it was drawn under (launch-key.ts). */
  key: string;
  columns: number;
  rows: number;
  /** The lines as written, SESSION_MARK in place of the session id. */
  lines: string[];
  /** Where the frame left the (hidden) cursor, in the frame's rows and columns; null: not moved. */
  cursor: { row: number; col: number } | null;
}

/**
 * One line of a frame: printable text, SGR sequences (`ESC [ … m`) and OSC 8 hyperlinks, as
 * pi-tui's line resets leave them. No other control character: no cursor move, no mode.
 */
const SAFE_LINE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escapes are what is matched
  /^(?:[^\x00-\x1f\x7f-\x9f]|\x1b\[[0-9;]*m|\x1b\]8;[^\x00-\x1f\x7f-\x9f]*(?:\x07|\x1b\\))*$/u;

/** The frame in `text` when it is one, for this key and size; undefined otherwise (a miss). */
export function parseFrame(
  text: string,
  expect: { key: string; columns: number; rows: number },
): LaunchFrame | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const frame = data as Partial<LaunchFrame> & { format?: unknown };
  if (frame === null || typeof frame !== "object" || frame.format !== FORMAT) return undefined;
  if (frame.key !== expect.key || frame.columns !== expect.columns || frame.rows !== expect.rows)
    return undefined;
  const { lines, cursor } = frame;
  if (!Array.isArray(lines) || lines.length === 0 || lines.length >= expect.rows) return undefined;
  if (!lines.every((line) => typeof line === "string" && line.length <= 8 * expect.columns + 256))
    return undefined;
  if (!lines.every((line) => SAFE_LINE.test(line))) return undefined;
  if (cursor !== null) {
    if (typeof cursor !== "object" || cursor === undefined) return undefined;
    const { row, col } = cursor;
    if (!Number.isInteger(row) || row < 0 || row >= lines.length) return undefined;
    if (!Number.isInteger(col) || col < 0 || col >= expect.columns) return undefined;
  }
  return { key: frame.key, columns: frame.columns, rows: frame.rows, lines, cursor };
}

/** The frame's file, when it is a small regular file of this user's only its owner can write. */
export function readFrameFile(path: string): string | undefined {
  return readOwnFile(path, MAX_FILE_BYTES);
}

/** The lines with this start's session id in place of the mark. */
export function linesFor(frame: LaunchFrame, sessionId: string): string[] {
  return frame.lines.map((line) => line.replaceAll(SESSION_MARK, sessionId));
}

/**
 * The bytes pi-tui 0.73 writes for a first frame: the lines in one synchronized update, then the
 * cursor moved to where the editor wants it (chat-command.ts stores a frame only when the TUI
 * wrote exactly these, so the two never drift apart). The cursor is hidden before and after.
 */
export function frameBytes(lines: readonly string[], cursor: LaunchFrame["cursor"]): string {
  let out = `\x1b[?2026h${lines.join("\r\n")}\x1b[?2026l`;
  if (cursor) {
    const up = lines.length - 1 - cursor.row;
    if (up > 0) out += `\x1b[${up}A`;
    out += `\x1b[${cursor.col + 1}G`;
  }
  return out;
}

/** The frame these bytes draw, when they are exactly frameBytes(lines, some cursor). */
export function cursorOf(
  written: string,
  lines: readonly string[],
  cursorRow: number,
): { cursor: LaunchFrame["cursor"] } | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the cursor move is what is matched
  const col = /\x1b\[(\d+)G$/.exec(written);
  const cursor = col ? { row: cursorRow, col: Number(col[1]) - 1 } : null;
  return frameBytes(lines, cursor) === written ? { cursor } : undefined;
}

/** Erases a frame drawn by frameBytes: back to its first row, cleared to the screen's end. */
export function eraseBytes(frame: LaunchFrame): string {
  const row = frame.cursor ? frame.cursor.row : frame.lines.length - 1;
  return `\r${row > 0 ? `\x1b[${row}A` : ""}\x1b[J\x1b[?25h`;
}

/** The frame file's text. */
export function serializeFrame(frame: LaunchFrame): string {
  return JSON.stringify({ format: FORMAT, ...frame });
}

/** Writes the frame (0600, atomically; the cache directory 0700). Never throws: an optimisation. */
export function storeFrame(path: string, frame: LaunchFrame): void {
  // Inside an existing home only: storing a frame never creates $CODEWHALE_HOME itself. A
  // read-only home, a full disk: the next start draws its first frame the usual way.
  writeOwnFile(path, serializeFrame(frame), [dirname(path)]);
}
