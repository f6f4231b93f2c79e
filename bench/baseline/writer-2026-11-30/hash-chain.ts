// Benchmark baseline for bench/session-log.ts: hash-chain.ts of b6032e7 (2026-11-30), minus the
// readers' hMemberAt, hOf and bodyOf. Not used by codewhale (src/).
// The hash chain and the line format of the session log. A line is the event's canonical JSON
// without `h`, with `,"h":"<hex>"}` put in place of its closing brace. `h` is the SHA-256 of
// the previous event's `h` (empty for seq 0) followed by those canonical bytes.
import { hash } from "node:crypto";

/** The chained hash of one event's canonical body. */
export function chainHash(previous: string, canonicalBody: string): string {
  return hash("sha256", previous + canonicalBody, "hex");
}

/** Builds a log line (without the newline) from a canonical body and its hash. */
export function formatLine(canonicalBody: string, h: string): string {
  return `${canonicalBody.slice(0, -1)},"h":"${h}"}`;
}
