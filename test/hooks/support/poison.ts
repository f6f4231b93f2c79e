// Hostile hook text for the output-policy tests: large, with a terminal-title OSC, a screen
// clear and a password at both ends, plus the check that a text came out policed.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** An OSC window title (ESC … BEL) and a password, as in the review finding. */
export const POISON = "\u001b]0;T\u0007 password: hunter2hunter2\u001b[2J";
/** The marker line the output policy puts where it cut a text that has no spill file. */
export const MARKER =
  /\n?\[… \d+ lines \(\d+ bytes\) omitted; original output \d+ bytes, \d+ lines; full output not saved …\]\n/;
/** C0 controls but tab and newline, DEL, and the C1 controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control bytes is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f]/;

/** About `bytes` bytes of log lines, with POISON on the first and the last line. */
export function poisoned(bytes: number): string {
  const line = `build step ${"y".repeat(88)}\n`;
  const body = line.repeat(Math.ceil(bytes / line.length));
  return `${POISON} first\n${body}${POISON} last\n`;
}

/** Writes `text` into `dir` (for a hook script to `cat`) and returns its path. */
export function payloadFile(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/**
 * Asserts `text` went through the output policy: no control bytes, the passwords redacted (both
 * ends, or only the first when the 1 MiB capture cap cut the last), cut to `maxBytes` around
 * one marker line.
 */
export function assertPoliced(text: string, options: { maxBytes?: number; cut?: boolean } = {}) {
  const maxBytes = options.maxBytes ?? 30_000;
  assert.doesNotMatch(text, CONTROL);
  assert.ok(!text.includes("hunter2"), "the password is in clear");
  const redacted = text.match(/password: \[REDACTED:password\]/g)?.length;
  assert.equal(redacted, options.cut ? 1 : 2);
  assert.match(text, MARKER);
  const kept = Buffer.byteLength(text.replace(MARKER, ""));
  assert.ok(kept <= maxBytes, `${kept} bytes kept besides the marker, over ${maxBytes}`);
  assert.ok(kept > maxBytes - 200, `only ${kept} bytes kept of ${maxBytes}`);
}
