// The replay of a signed log without parsing its streamed chunks, for deriveFromLog (the
// history a resume replays): chunk lines are passed over undecoded (reader.ts `skipChunks`)
// while workers check the whole chain, and are trusted only when the last checkpoint, whose
// signature by the trusted key verifies, covers them; those after it are re-read in full.
// Called by replay.ts, which reads the log in full whenever this returns null.
import { SessionCorruptError } from "../errors.ts";
import { checkChainInWorker } from "./chain-worker.ts";
import { type HistoryMessage, MessageDeriver } from "./derive.ts";
import type { SessionEvent } from "./events.ts";
import { type ReadSummary, SessionReader } from "./reader.ts";
import { type Receipt, type ReceiptTrust, ReceiptVerifier } from "./receipt.ts";

export interface SignedReplay {
  summary: ReadSummary;
  receipt: Receipt;
  /** Chunk lines taken on the word of the verified signature, never parsed. */
  trustedLines: number;
}

/**
 * Replays a whole log through `onEvent` and checks its receipt, trusting signed chunk lines
 * unread; the lines after the last checkpoint, read again in full, go to `onTail` (from the
 * first chunk line among them on). Null when anything is wrong or nothing is signed: the
 * caller then reads the log in full, which reports the problem.
 */
export async function replaySigned(
  path: string,
  trust: ReceiptTrust,
  onEvent: (event: SessionEvent) => void,
  onTail: (event: SessionEvent) => void = () => undefined,
): Promise<SignedReplay | null> {
  if (trust.key === null) return null;
  const chain = checkChainInWorker(path);
  const verifier = new ReceiptVerifier(path, trust);
  const reader = new SessionReader(path, { checkHashes: false, skipChunks: true });
  try {
    for (const event of reader.events()) {
      // A checkpoint signs the line before it, which may be a chunk line passed over unread.
      if (event.type === "session/checkpoint" && event.seq > 0)
        verifier.passedOver(event.seq - 1, reader.hashBefore);
      onEvent(event);
      verifier.push(event);
    }
  } catch (error) {
    chain.catch(() => undefined);
    if (error instanceof SessionCorruptError) return null;
    throw error;
  }
  const { summary } = reader;
  const { brokenLine, lines } = await chain;
  const complete = summary.events - (summary.missingNewline ? 1 : 0);
  if (brokenLine !== null || lines < complete) return null;
  verifier.passedOver(summary.lastSeq, summary.lastHash);
  const receipt = finished(verifier);
  if (receipt?.signed == null || !tailHolds(reader, onTail)) return null;
  return { summary, receipt, trustedLines: reader.skippedBeforeCheckpoint };
}

/** `replaySigned` deriving the history, for deriveFromLog (replay.ts). */
export async function deriveSigned(
  path: string,
  trust: ReceiptTrust,
): Promise<(SignedReplay & { messages: HistoryMessage[] }) | null> {
  const deriver = new MessageDeriver();
  const replay = await replaySigned(path, trust, (event) => deriver.push(event));
  return replay && { ...replay, messages: deriver.messages() };
}

/**
 * `replaySigned` keeping the events, for resume (agent/session-open.ts): every event but the
 * chunks the signature covers, in order (the unsigned tail's chunks are kept).
 */
export async function readSigned(
  path: string,
  trust: ReceiptTrust,
): Promise<{ events: SessionEvent[]; summary: ReadSummary } | null> {
  const events: SessionEvent[] = [];
  const tail: SessionEvent[] = [];
  const replay = await replaySigned(
    path,
    trust,
    (event) => events.push(event),
    (event) => tail.push(event),
  );
  if (!replay) return null;
  const from = tail[0]?.seq;
  if (from === undefined) return { events, summary: replay.summary };
  const kept = events.filter((event) => event.seq < from);
  return { events: kept.concat(tail), summary: replay.summary };
}

function finished(verifier: ReceiptVerifier): Receipt | null {
  try {
    return verifier.finish();
  } catch (error) {
    if (error instanceof SessionCorruptError) return null;
    throw error;
  }
}

/** The chunk lines after the last checkpoint, read again and checked as the full path does. */
function tailHolds(reader: SessionReader, onTail: (event: SessionEvent) => void): boolean {
  const start = reader.uncovered;
  if (start === null) return true;
  const untilSeq = reader.summary.lastSeq;
  const tail = new SessionReader(reader.path, { checkHashes: false, start, untilSeq });
  try {
    for (const event of tail.events()) onTail(event);
    return tail.summary.lastSeq === untilSeq && tail.summary.lastHash === reader.summary.lastHash;
  } catch (error) {
    if (error instanceof SessionCorruptError) return false;
    throw error;
  }
}
