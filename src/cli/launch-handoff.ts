// The CLI's side of the launch frame (src/cli/launch.ts, run by the bin): the handoff the bin
// left, and what the first frame the TUI draws means for the frame file. A hit whose frame the
// TUI drew differently is forgotten (the next start draws its own); a miss stores the TUI's
// frame once the session is open, only when pi-tui wrote exactly the bytes the bin would.
// Used by chat-command.ts (the interactive start) and main.ts (erasing before an error line).
import { rmSync } from "node:fs";
import type { DrawnFrame } from "../tui/index.ts";
import { HANDOFF, type LaunchHandoff } from "./launch.ts";
import {
  cursorOf,
  type LaunchFrame,
  parseFrame,
  SESSION_MARK,
  serializeFrame,
  storeFrame,
} from "./launch-frame.ts";

export type { LaunchHandoff } from "./launch.ts";

/** The bin's handoff, on a plain interactive start in a terminal (the frame drawn or not). */
export function launchHandoff(): LaunchHandoff | undefined {
  return (globalThis as Record<symbol, LaunchHandoff | undefined>)[HANDOFF];
}

/** Keeps (or forgets) the frame file after the first frame `drawn` of session `sessionId`. */
export function rememberFrame(handoff: LaunchHandoff, drawn: DrawnFrame, sessionId: string): void {
  if (handoff.shown) {
    const same =
      drawn.lines.length === handoff.shown.lines.length &&
      drawn.lines.every((line, i) => line === handoff.shown?.lines[i]);
    if (!same) rmSync(handoff.file, { force: true });
    return;
  }
  const frame = frameOf(handoff, drawn, sessionId);
  if (frame) storeFrame(handoff.file, frame);
}

function frameOf(
  handoff: LaunchHandoff,
  drawn: DrawnFrame,
  sessionId: string,
): LaunchFrame | undefined {
  if (drawn.columns !== handoff.columns || drawn.rows !== handoff.rows) return undefined;
  if (!drawn.lines.some((line) => line.includes(sessionId))) return undefined;
  const exact = cursorOf(drawn.written, drawn.lines, drawn.cursorRow);
  if (!exact) return undefined;
  const frame: LaunchFrame = {
    key: handoff.key,
    columns: drawn.columns,
    rows: drawn.rows,
    lines: drawn.lines.map((line) => line.replaceAll(sessionId, SESSION_MARK)),
    cursor: exact.cursor,
  };
  // Stored only when it reads back as itself: what the bin will accept, nothing else.
  return parseFrame(serializeFrame(frame), handoff) ? frame : undefined;
}
