// The options of the session views (`export`, `sessions show`): `--view` and `--format`
// parsers, `--until`/`--at` seq parsers, and the error for a seq past the end of the log,
// naming the valid range. Called by export-command.ts and sessions-command.ts.
import { UsageError } from "../errors.ts";
import { type ExportFormat, isExportFormat } from "../present/export-render-types.ts";
import { type ExportView, isExportView } from "../present/export-view.ts";

export function viewOption(value: string): ExportView {
  if (isExportView(value)) return value;
  throw new UsageError(`--view must be canonical, response-only or thinking-only, not "${value}"`);
}

export function formatOption(value: string): ExportFormat {
  if (isExportFormat(value)) return value;
  throw new UsageError(`--format must be jsonl, md or html, not "${value}"`);
}

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
