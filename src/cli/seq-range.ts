// Seq options of the session views (`export --until`, `sessions show --at`): parsing the value,
// and the error for a seq past the end of the log, naming the valid range. Called by
// export-command.ts and sessions-command.ts.
import { UsageError } from "../errors.ts";

/** A commander parser for `flag <seq>`: a whole number from 0. */
export function seqOption(flag: string): (value: string) => number {
  return (value) => {
    const seq = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(seq)) {
      throw new UsageError(`${flag} needs a seq (a whole number from 0), not "${value}"`);
    }
    return seq;
  };
}

/** Throws when `seq` is past the last seq of the session; the range is 0 to `lastSeq`. */
export function checkSeqInRange(flag: string, seq: number, lastSeq: number, id: string): void {
  if (seq <= lastSeq) return;
  throw new UsageError(`${flag} ${seq} is out of range: session ${id} has seqs 0 to ${lastSeq}`);
}
