// What the CLI's commands print for a person, on stdout or stderr, goes through here: text
// through the one escaper (runner's terminalSafe: control, bidi and invisible characters as
// visible escapes, lines kept), JSON with those characters as `\u` escapes (the same value).
// Used by the commands' views (doctor, config, trust, mcp, sessions); fail.ts escapes errors.
import { jsonSafe, terminalSafe } from "../runner/index.ts";

/** Text for a person on stdout. */
export function printOut(text: string): void {
  process.stdout.write(terminalSafe(text));
}

/** Text for a person on stderr. */
export function printErr(text: string): void {
  process.stderr.write(terminalSafe(text));
}

/** `value` as indented JSON on stdout, a line of its own. */
export function printJson(value: unknown): void {
  process.stdout.write(`${jsonSafe(JSON.stringify(value, null, 2))}\n`);
}
