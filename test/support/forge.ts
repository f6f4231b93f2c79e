// What a forger without the user's key can do to a session log: edit its events and recompute
// every hash, with the same canonical JSON and chain the writer uses. Used by the receipt
// threat tests (test/cli/session-receipts.test.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { canonicalJson } from "../../src/session/canonical-json.ts";
import { chainHash, formatLine } from "../../src/session/hash-chain.ts";

export type LogEvent = Record<string, unknown> & { type: string; seq: number; h?: string };

export function readEvents(path: string): LogEvent[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as LogEvent);
}

/** Writes events as a valid chain: seq renumbered densely, every `h` recomputed. */
export function writeRehashed(path: string, events: LogEvent[]): void {
  let previous = "";
  const lines = events.map((event, seq) => {
    const { h: _h, ...rest } = { ...event, seq };
    const body = canonicalJson(rest);
    previous = chainHash(previous, body);
    return formatLine(body, previous);
  });
  writeFileSync(path, `${lines.join("\n")}\n`);
}

/** Applies `edit` to the events of a log and rehashes the whole chain. */
export function forge(path: string, edit: (events: LogEvent[]) => LogEvent[]): void {
  writeRehashed(path, edit(readEvents(path)));
}

/** The `h` each line would get after rehashing, by seq (to build a consistent checkpoint). */
export function chainOf(events: LogEvent[]): string[] {
  let previous = "";
  return events.map((event, seq) => {
    const { h: _h, ...rest } = { ...event, seq };
    previous = chainHash(previous, canonicalJson(rest));
    return previous;
  });
}
