// What `codewhale sessions show` prints for one log: it reads the log (as far as it is valid,
// or up to a seq), folds its figures, checks how far it verifies, and renders the header, one
// line per event and the notes on a torn or damaged tail (session-render.ts). Used by
// sessions-command.ts, and by sessions-stats.ts to count the bytes a terminal receives.
import { SessionCorruptError } from "../errors.ts";
import { plural } from "../present/format.ts";
import { terminalSafe } from "../runner/index.ts";
import type { SessionEvent } from "../session/events.ts";
import { type Figures, foldFigures } from "../session/figures.ts";
import { readSession, type TailDamage } from "../session/reader.ts";
import { ReceiptVerifier } from "../session/receipt.ts";
import { type SessionSummary, summarizeSession } from "../session/summary.ts";
import { verifyTrust } from "./receipts.ts";
import { childLines } from "./session-children.ts";
import { renderEventLines, renderSummaryHeader } from "./session-render.ts";

export interface ShownSession {
  path: string;
  summary: SessionSummary;
  events: SessionEvent[];
  figures: Figures;
  torn: { offset: number; bytes: number } | null;
  damaged: TailDamage | null;
}

/** Reads a log for showing: a damaged tail ends the read (and is reported), never throws. */
export function readShown(path: string, untilSeq?: number): ShownSession {
  const { events, summary: read } = readSession(path, {
    tolerateDamagedTail: true,
    ...(untilSeq === undefined ? {} : { untilSeq }),
  });
  const damaged = read.damaged ?? null;
  // The cheap summary counts from the last line; past a damaged tail, count what verified.
  const summary = { ...summarizeSession(path), ...(damaged ? { events: read.events } : {}) };
  return { path, summary, events, figures: foldFigures(events), torn: read.torn, damaged };
}

/** The text `sessions show` prints, newline-terminated. */
export function showText(shown: ShownSession): string {
  const { path, summary, events, figures, torn, damaged } = shown;
  const verified = verificationLine(path, events, damaged, torn);
  const header = renderSummaryHeader({ summary, figures, verified });
  const children = childLines(path, events, figures.cost);
  const lines = [...header, ...children, "", ...renderEventLines(events)];
  if (torn) lines.push(`(torn last line: ${torn.bytes} bytes, cut on resume)`);
  if (damaged) lines.push(terminalSafe(damagedTailNote(damaged, summary.id)));
  return `${lines.join("\n")}\n`;
}

/**
 * How far the shown events verify: the hash chain (checked as they were read), then the
 * signed checkpoints against the user's key; a problem is named, not thrown (`show` is a view).
 */
function verificationLine(
  path: string,
  events: readonly SessionEvent[],
  damaged: TailDamage | null,
  torn: { bytes: number } | null,
): string {
  const lastSeq = events.at(-1)?.seq ?? -1;
  const tail = damaged
    ? `; damaged tail after seq ${damaged.afterSeq} not shown`
    : torn
      ? `; torn last line (${torn.bytes} bytes)`
      : "";
  let signed: string;
  try {
    const receipt = new ReceiptVerifier(path, verifyTrust(undefined));
    for (const event of events) receipt.push(event);
    const { signed: last, unsignedLines } = receipt.finish();
    signed = last
      ? `signed to seq ${last.seq} by key ${last.key}${unsignedLines > 0 ? ` (${plural(unsignedLines, "later line")} unsigned)` : ""}`
      : "unsigned (no checkpoint)";
  } catch (error) {
    if (!(error instanceof SessionCorruptError)) throw error;
    signed = `NOT VERIFIED: line ${error.line}: ${error.reason}`;
  }
  return `chain intact to seq ${lastSeq}${tail}; ${signed}`;
}

/** The one line `show` ends with when it stopped at a damaged tail. */
function damagedTailNote(damaged: TailDamage, id: string): string {
  const where = `line ${damaged.line}: ${damaged.reason}; ${damaged.bytes} bytes not shown`;
  return `(damaged tail after seq ${damaged.afterSeq}: ${where}; \`codewhale sessions repair ${id}\` cuts it, keeping the cut lines)`;
}
