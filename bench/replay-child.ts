// Child process of the session log and export benchmarks (bundled by bench/session-log.ts):
// `resume` reads and verifies a log, checks its checkpoints against the key in the home given
// and its index, and derives its history, as resume does; `parse` merely reads it and
// JSON.parses every line. Prints { ms, rssMb, detail } as JSON.
import { closeSync, openSync, readSync } from "node:fs";
import { checkpointIndexPath } from "../src/session/checkpoint-index.ts";
import { deriveMessages } from "../src/session/derive.ts";
import { readSession } from "../src/session/reader.ts";
import { ReceiptVerifier } from "../src/session/receipt.ts";
import { loadSigningKey, signingKeyPath } from "../src/session/signing-key.ts";

const [mode, path, home] = process.argv.slice(2) as [string, string, string];

/** What resume does with a log: read and verify it, check its receipt, derive its history. */
function resume(): string {
  const key = loadSigningKey(home);
  const indexPath = checkpointIndexPath(home);
  const trust = { key, keyPath: signingKeyPath(home), indexPath, everySignature: false };
  const verifier = new ReceiptVerifier(path, trust);
  const { events, summary } = readSession(path);
  for (const event of events) verifier.push(event);
  const receipt = verifier.finish();
  const messages = deriveMessages(events);
  return `${summary.events} events verified, ${messages.length} messages derived, ${receipt.checkpoints} checkpoints checked`;
}

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
const detail = mode === "parse" ? parseOnly() : resume();
const ms = performance.now() - began;
const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(JSON.stringify({ ms, rssMb, detail }));
