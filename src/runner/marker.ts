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
    `[… ${lines(facts.omittedLines)} (${facts.omittedBytes} bytes) omitted; original output ` +
    `${facts.originalBytes} bytes, ${lines(facts.originalLines)}; ${where} …]`;
  return `${facts.afterNewline ? "" : "\n"}${line}\n`;
}

function lines(count: number): string {
  return `${count} ${count === 1 ? "line" : "lines"}`;
}

/** The longest marker a budget check must allow for, given the spill path length. */
export function maxMarkerBytes(spillPathBytes = 4096): number {
  return 160 + spillPathBytes;
}

export interface UnreadFacts {
  /** New bytes in the log since the last read. */
  newBytes: number;
  omittedBytes: number;
  /** The log, and the byte range of it that was left out. */
  path: string;
  from: number;
  to: number;
  afterNewline: boolean;
}

/**
 * The marker of a bounded log read (log-window.ts): the middle was never read, so it states
 * bytes, not lines, and where in the log the left-out text is.
 */
export function unreadMarker(facts: UnreadFacts): string {
  const line =
    `[… ${facts.omittedBytes} bytes omitted (not read); new output ${facts.newBytes} bytes; ` +
    `the omitted text is bytes ${facts.from}-${facts.to} of ${facts.path} …]`;
  return `${facts.afterNewline ? "" : "\n"}${line}\n`;
}
