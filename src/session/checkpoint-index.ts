// The user's checkpoint index, `$CODEWHALE_HOME/checkpoints.jsonl`: one appended line
// `{"session_id","seq","h"}` per signed checkpoint, so a log cut after a checkpoint is caught.
// The writer appends (through checkpoint.ts) after the checkpoint is durable in the log;
// receipt.ts reads the latest record of a session.
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { SessionWriteError } from "../errors.ts";

export interface CheckpointRecord {
  session_id: string;
  /** The seq of the last event the checkpoint signs. */
  seq: number;
  /** That event's `h`. */
  h: string;
}

export function checkpointIndexPath(home: string): string {
  return join(home, "checkpoints.jsonl");
}

/**
 * Appends one record: one small O_APPEND write, so concurrent writers never interleave. It is
 * not synced: the log line it records already is, so a power loss can only lose a record
 * (a cut after it then goes unnoticed), never leave one the log lacks.
 */
export function appendCheckpointRecord(path: string, record: CheckpointRecord): void {
  const line = `${JSON.stringify({ session_id: record.session_id, seq: record.seq, h: record.h })}\n`;
  try {
    const fd = openSync(path, "a", 0o600);
    try {
      writeSync(fd, line);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new SessionWriteError(path, error);
  }
}

/**
 * The record with the highest seq for a session; null when the index has none, "missing" when
 * there is no index file. Lines that are not records (a torn last line) are skipped.
 */
export function latestCheckpointRecord(
  path: string,
  sessionId: string,
): CheckpointRecord | null | "missing" {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw error;
  }
  let latest: CheckpointRecord | null = null;
  const needle = `{"session_id":${JSON.stringify(sessionId)},`;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const end = text.indexOf("\n", at);
    const record = parseRecord(text.slice(at, end < 0 ? text.length : end));
    if (record && (latest === null || record.seq > latest.seq)) latest = record;
  }
  return latest;
}

function parseRecord(line: string): CheckpointRecord | null {
  try {
    const value = JSON.parse(line) as Partial<CheckpointRecord>;
    if (typeof value.seq !== "number" || typeof value.h !== "string") return null;
    return { session_id: String(value.session_id), seq: value.seq, h: value.h };
  } catch {
    return null;
  }
}
