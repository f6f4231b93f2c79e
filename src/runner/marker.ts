// The one line that replaces the middle of a truncated output. It states the original size in
// bytes and lines, what was left out, and where the full output is (when it was spilled).

export interface MarkerFacts {
  originalBytes: number;
  originalLines: number;
  omittedBytes: number;
  omittedLines: number;
  spillPath: string | null;
  /** Whether the head ends at a line start (else the marker starts a new line). */
  afterNewline: boolean;
}

export function truncationMarker(facts: MarkerFacts): string {
  const where = facts.spillPath ? `full output in ${facts.spillPath}` : "full output not saved";
  const line =
    `[… ${facts.omittedLines} lines (${facts.omittedBytes} bytes) omitted; original output ` +
    `${facts.originalBytes} bytes, ${facts.originalLines} lines; ${where} …]`;
  return `${facts.afterNewline ? "" : "\n"}${line}\n`;
}

/** The longest marker a budget check must allow for, given the spill path length. */
export function maxMarkerBytes(spillPathBytes = 4096): number {
  return 160 + spillPathBytes;
}
