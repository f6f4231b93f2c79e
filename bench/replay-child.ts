// Child process of the replay benchmark (bundled by bench/session-log.ts): `replay` opens,
// verifies and derives a log; `parse` merely reads it and JSON.parses every line. Prints
// { ms, rssMb, detail } as JSON.
import { closeSync, openSync, readSync } from "node:fs";
import { deriveFromLog } from "../src/session/replay.ts";

const [mode, path] = process.argv.slice(2) as [string, string];

function parseOnly(): string {
  const fd = openSync(path, "r");
  const buffer = Buffer.allocUnsafe(4 << 20);
  let carry = "";
  let lines = 0;
  for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
    const text = carry + buffer.toString("utf8", 0, read);
    const parts = text.split("\n");
    carry = parts.pop()!;
    for (const line of parts) {
      JSON.parse(line);
      lines++;
    }
  }
  closeSync(fd);
  return `${lines} lines`;
}

const began = performance.now();
const detail =
  mode === "parse"
    ? parseOnly()
    : await deriveFromLog(path).then(
        ({ messages, summary }) =>
          `${summary.events} events verified, ${messages.length} messages derived`,
      );
const ms = performance.now() - began;
const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(JSON.stringify({ ms, rssMb, detail }));
