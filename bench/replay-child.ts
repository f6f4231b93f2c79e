// Child process of the replay benchmark (bundled by bench/session-log.ts): `replay` opens,
// verifies and derives a log and checks its checkpoints against the key in the home given and
// its index as resume does (the last signature), passing over the chunk lines it covers
// (session/signed-replay.ts); `replay-audit` checks every signature, as `sessions verify`
// does; `replay-unsigned` checks none and reads every line in full; `parse` merely reads it and
// JSON.parses every line; `hash` reads it and hashes every line's bytes once (the chain's
// share). Prints { ms, rssMb, detail } as JSON.
import { hash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
import { checkpointIndexPath } from "../src/session/checkpoint-index.ts";
import type { ReceiptTrust } from "../src/session/receipt.ts";
import { deriveFromLog } from "../src/session/replay.ts";
import { loadSigningKey, signingKeyPath } from "../src/session/signing-key.ts";

const [mode, path, home] = process.argv.slice(2) as [string, string, string];

function trust(everySignature: boolean): ReceiptTrust {
  const key = loadSigningKey(home);
  const indexPath = checkpointIndexPath(home);
  return { key, keyPath: signingKeyPath(home), indexPath, everySignature };
}

function receiptOf(): { receipt?: ReceiptTrust } {
  if (mode === "replay") return { receipt: trust(false) };
  if (mode === "replay-audit") return { receipt: trust(true) };
  return {};
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

/** Reads the log in 4 MiB chunks and hashes every line's bytes once, decoding nothing. */
function hashOnly(): string {
  const fd = openSync(path, "r");
  let buffer = Buffer.allocUnsafe(4 << 20);
  let carried = 0;
  let lines = 0;
  for (;;) {
    if (carried === buffer.length)
      buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
    const read = readSync(fd, buffer, carried, buffer.length - carried, null);
    if (read === 0) break;
    const end = carried + read;
    let from = 0;
    for (let newline = buffer.indexOf(10, from); newline >= 0 && newline < end; ) {
      hash("sha256", buffer.subarray(from, newline), "hex");
      lines++;
      from = newline + 1;
      newline = from < end ? buffer.indexOf(10, from) : -1;
    }
    carried = buffer.copy(buffer, 0, from, end);
  }
  closeSync(fd);
  return `${lines} lines hashed`;
}

const began = performance.now();
const detail =
  mode === "parse"
    ? parseOnly()
    : mode === "hash"
      ? hashOnly()
      : await deriveFromLog(path, receiptOf()).then(
          ({ messages, summary, receipt, trustedLines }) =>
            `${summary.events} events verified, ${messages.length} messages derived${receipt ? `, ${receipt.checkpoints} checkpoints checked, ${trustedLines} chunk lines taken on the signature's word` : ""}`,
        );
const ms = performance.now() - began;
const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(JSON.stringify({ ms, rssMb, detail }));
