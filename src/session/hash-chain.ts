// The hash chain and the line format of the session log. A line is the event's canonical JSON
// without `h`, with `,"h":"<hex>"}` put in place of its closing brace. `h` is the SHA-256 of
// the previous event's `h` (empty for seq 0) followed by those canonical bytes.
import { hash } from "node:crypto";

const H_SUFFIX_LENGTH = ',"h":"'.length + 64 + '"}'.length;

/** The chained hash of one event's canonical body. */
export function chainHash(previous: string, canonicalBody: string): string {
  return hash("sha256", previous + canonicalBody, "hex");
}

/** Builds a log line (without the newline) from a canonical body and its hash. */
export function formatLine(canonicalBody: string, h: string): string {
  return `${canonicalBody.slice(0, -1)},"h":"${h}"}`;
}

/**
 * Where a line's trailing `,"h":"<hex>"}` member starts, or -1 when the line does not end with
 * one. Whether `h` is well-formed hex is settled by comparing it with the computed hash.
 */
export function hMemberAt(line: string): number {
  if (line.length < H_SUFFIX_LENGTH + 2 || !line.endsWith('"}')) return -1;
  const at = line.length - H_SUFFIX_LENGTH;
  return line.startsWith(',"h":"', at) ? at : -1;
}

/** The `h` of a line whose member starts at `at`. */
export function hOf(line: string, at: number): string {
  return line.slice(at + 6, line.length - 2);
}

/** The canonical body a line claims: the line without its `h` member. */
export function bodyOf(line: string, at: number): string {
  return `${line.slice(0, at)}}`;
}
