// Recorded provider streams (test/fixtures/wire, listed with their sources in index.json) as
// items for the mock provider's queue: `mock.enqueue(replayOf("chat/mistral-tool-no-index"))`
// sends that file's bytes exactly as recorded, one event per write.
import { readFileSync } from "node:fs";
import type { ReplayedStream } from "./script.ts";

export const WIRE_FIXTURES = new URL("../../fixtures/wire/", import.meta.url);

/** The stream stored as `test/fixtures/wire/<name>.sse`. */
export function replayOf(name: string): ReplayedStream {
  return { replay: readFileSync(new URL(`${name}.sse`, WIRE_FIXTURES)) };
}
