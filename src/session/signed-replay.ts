// The replay of a signed log without parsing its streamed chunks, for deriveFromLog (the
// history a resume replays): chunk lines are passed over undecoded (reader.ts `skipChunks`)
// while workers check the whole chain, and are trusted only when the last checkpoint, whose
// signature by the trusted key verifies, covers them; those after it are re-read in full.
// Called by replay.ts, which reads the log in full whenever this returns null.
import { SessionCorruptError } from "../errors.ts";
import { checkChainInWorker } from "./chain-worker.ts";
import { type HistoryMessage, MessageDeriver } from "./derive.ts";
import { type ReadSummary, SessionReader } from "./reader.ts";
import { type Receipt, type ReceiptTrust, ReceiptVerifier } from "./receipt.ts";

export interface SignedReplay {
  messages: HistoryMessage[];
  summary: ReadSummary;
  receipt: Receipt;
  /** Chunk lines taken on the word of the verified signature, never parsed. */
  trustedLines: number;
}

/**
 * Derives a whole log's history and checks its receipt, trusting signed chunk lines unread;
 * null when anything is wrong or nothing is signed (the caller then reads it in full).
 */
export async function replaySigned(
  path: string,
  trust: ReceiptTrust,
): Promise<SignedReplay | null> {
  if (trust.key === null) return null;
  const chain = checkChainInWorker(path);
  const deriver = new MessageDeriver();
  const verifier = new ReceiptVerifier(path, trust);
  const reader = new SessionReader(path, { checkHashes: false, skipChunks: true });
  try {
    for (const event of reader.events()) {
      if (event.seq > 0) verifier.passedOver(event.seq - 1, reader.hashBefore);
      deriver.push(event);
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
  if (receipt?.signed == null || !tailHolds(reader)) return null;
  const trustedLines = reader.skippedBeforeCheckpoint;
  return { messages: deriver.messages(), summary, receipt, trustedLines };
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
function tailHolds(reader: SessionReader): boolean {
  const start = reader.uncovered;
  if (start === null) return true;
  const untilSeq = reader.summary.lastSeq;
  const tail = new SessionReader(reader.path, { checkHashes: false, start, untilSeq });
  try {
    for (const _ of tail.events());
    return tail.summary.lastSeq === untilSeq && tail.summary.lastHash === reader.summary.lastHash;
  } catch (error) {
    if (error instanceof SessionCorruptError) return false;
    throw error;
  }
}
