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
 * Splits a line into the canonical body it claims and its `h`, or returns null when the line
 * does not end with a well-formed `h` member.
 */
export function splitLine(line: string): { body: string; h: string } | null {
  if (line.length < H_SUFFIX_LENGTH + 2 || !line.endsWith('"}')) return null;
  const at = line.length - H_SUFFIX_LENGTH;
  if (line.slice(at, at + 6) !== ',"h":"') return null;
  // Whether h is well-formed hex is settled by comparing it with the computed hash.
  return { body: `${line.slice(0, at)}}`, h: line.slice(at + 6, line.length - 2) };
}
