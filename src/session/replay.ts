// Replays a log through a callback with full verification, hashing on a worker thread in
// parallel for large logs. Used by derive-from-log, exports and resume of big sessions: the
// result counts only once the whole chain is known good, so it is returned after the replay.
import { statSync } from "node:fs";
import { SessionCorruptError } from "../errors.ts";
import { checkChainInWorker } from "./chain-worker.ts";
import { type HistoryMessage, MessageDeriver } from "./derive.ts";
import type { SessionEvent } from "./events.ts";
import { type ReadOptions, type ReadSummary, SessionReader } from "./reader.ts";
import { type Receipt, type ReceiptTrust, ReceiptVerifier } from "./receipt.ts";
import { deriveSigned } from "./signed-replay.ts";

/** Below this size a log's chain worker costs more than it saves (also for resume's signed replay). */
export const PARALLEL_BYTES = 8 << 20;

export async function replaySession(
  path: string,
  onEvent: (event: SessionEvent) => void,
  options: Omit<ReadOptions, "checkHashes" | "tolerateDamagedTail"> = {},
): Promise<ReadSummary> {
  if (statSync(path).size < PARALLEL_BYTES) {
    const reader = new SessionReader(path, options);
    for (const event of reader.events()) onEvent(event);
    return reader.summary;
  }
  const maxLines = options.untilSeq === undefined ? undefined : options.untilSeq + 1;
  const chain = checkChainInWorker(path, maxLines);
  const reader = new SessionReader(path, { ...options, checkHashes: false });
  let failure: SessionCorruptError | undefined;
  try {
    for (const event of reader.events()) onEvent(event);
  } catch (error) {
    if (!(error instanceof SessionCorruptError)) {
      chain.catch(() => undefined);
      throw error;
    }
    failure = error;
  }
  const { brokenLine } = await chain;
  if (brokenLine !== null && (!failure || brokenLine < failure.line)) {
    throw new SessionCorruptError(path, brokenLine, "hash chain broken");
  }
  if (failure) throw failure;
  return reader.summary;
}

export interface DerivedLog {
  messages: HistoryMessage[];
  summary: ReadSummary;
  receipt: Receipt | null;
  /** Chunk lines a verified signature vouched for, never parsed (signed-replay.ts); else 0. */
  trustedLines: number;
}

/**
 * Opens, verifies and derives the request history of a log, as it stood at `untilSeq`; with
 * `receipt` (whole logs only), also checks its signed checkpoints once the chain is known good.
 * A whole log with a trusted key is first replayed without parsing the chunk lines its last
 * verified checkpoint covers (signed-replay.ts); if that fails, it is read in full, which
 * reports the problem.
 */
export async function deriveFromLog(
  path: string,
  options: { untilSeq?: number; receipt?: ReceiptTrust } = {},
): Promise<DerivedLog> {
  if (options.receipt && options.untilSeq === undefined) {
    const signed = await deriveSigned(path, options.receipt);
    if (signed) return signed;
  }
  const deriver = new MessageDeriver();
  const verifier = options.receipt ? new ReceiptVerifier(path, options.receipt) : null;
  // As resume (agent/session-open.ts): damage anywhere in the log is reported before a
  // problem with its receipts, so a receipt problem waits until the whole log has been read.
  let receiptProblem: { error: unknown } | null = null;
  const onEvent = verifier
    ? (event: SessionEvent) => {
        deriver.push(event);
        if (receiptProblem !== null) return;
        try {
          verifier.push(event);
        } catch (error) {
          receiptProblem = { error };
        }
      }
    : (event: SessionEvent) => deriver.push(event);
  const untilSeq = options.untilSeq === undefined ? {} : { untilSeq: options.untilSeq };
  const summary = await replaySession(path, onEvent, untilSeq);
  if (receiptProblem !== null) throw (receiptProblem as { error: unknown }).error;
  return {
    messages: deriver.messages(),
    summary,
    receipt: verifier?.finish() ?? null,
    trustedLines: 0,
  };
}
